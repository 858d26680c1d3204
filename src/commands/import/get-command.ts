import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { waitFlags } from '../../core/cli/wait-flags.js';
import type { VerbDecl } from '../declaration.js';

// `csafe import get`: its declaration — flags, help and examples.

export const importGet = {
  name: 'get',
  description: 'Show an import (GET /v1/import/{import_id}): its status, file and creation time',
  args: [{ name: '<import-id>', help: 'as printed by `import create`' }],
  flags: waitFlags('poll until the import is COMPLETE or FAILED (exit 1 unless COMPLETE)', '10m'),
  details: `
Statuses: WAITING_FOR_UPLOAD, IN_PROGRESS, COMPLETE, FAILED; any other status or field the
service sends is shown as it comes. --json prints the import as the service returned it.
(For a namespace import request, see \`csafe data status\`.)`,
  examples: [
    'csafe import get imp_123 --wait --timeout 10m',
    'csafe import get imp_123 --json | jq -r .import_status',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
