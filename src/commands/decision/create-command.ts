import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { waitFlags } from '../../core/cli/wait-flags.js';
import type { VerbDecl } from '../declaration.js';

// `csafe decision create`: its declaration — flags, help and examples.

export const decisionCreate = {
  name: 'create',
  description: 'Ask for a decision on one piece of content (POST /v1/decisions)',
  flags: {
    dryRun: DRY_RUN_FLAG,
    type: { type: 'text', value: 'type', help: 'the kind of content to review, e.g. text, listing' },
    content: { type: 'text', value: 'json|@file', help: 'the content: a JSON object, inline or from a file (@- reads stdin); its fields depend on --type' },
    metadata: { type: 'text', value: 'key=value|@file.json', help: 'metadata kept with the decision (repeatable)', repeat: true },
    ...waitFlags('poll until the decision is SUCCESS or ERROR, then show it (exit 1 on anything but SUCCESS)', '5m'),
  },
  details: `
Prints the decision's id, type and metadata. With --wait it shows the settled decision instead:
its status, result and labels (--json: the decision as the service returned it, as
\`decision get\` prints it; its type shows in the table only).`,
  examples: [
    `csafe decision create --type text --content '{"text":"see you"}' --metadata source=app --wait`,
    'csafe decision create --type listing --content @examples/listing.json --json',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
