import { PROFILE_VARIABLES } from '../../core/cli/help.js';
import { EVENT_TYPES } from '../../schemas/names.js';
import type { VerbDecl } from '../declaration.js';

// `csafe events example`: its declaration — flags, help and examples.

export const eventsExample: VerbDecl = {
  name: 'example',
  description: 'Print a valid example event of a variant (all seven as JSON Lines when none is named)',
  args: [{ name: '[type]', help: EVENT_TYPES.join(', '), choices: EVENT_TYPES }],
  examples: ['csafe events example product_changed', 'csafe events example > events.jsonl', `csafe events example user_report | jq -c '.user_id = "u42"' >> events.jsonl`],
  environment: PROFILE_VARIABLES,
};
