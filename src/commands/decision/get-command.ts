import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { waitFlags } from '../../core/cli/wait-flags.js';
import type { VerbDecl } from '../declaration.js';

// `csafe decision get`: its declaration — flags, help and examples.

export const decisionGet = {
  name: 'get',
  description: 'Show a decision: status, result and labels (GET /v1/decisions/{decision_id})',
  args: [{ name: '<decision-id>', help: 'as printed by `decision create`' }],
  flags: waitFlags('poll while it is PENDING, until SUCCESS or ERROR (exit 1 on anything but SUCCESS)', '5m'),
  details: `
The decision's fields (a result not known yet shows as none, fields the spec does not list as they
came), then its labels as a table: name, applied, explanation. --json prints it as returned.`,
  examples: [
    'csafe decision get dec_123 --wait',
    "csafe decision get dec_123 --json | jq '.labels[] | select(.applied)'",
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
