import { PROFILE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe auth status`: its declaration — flags, help and examples.

export const authStatus: VerbDecl = {
  name: 'status',
  description: 'Show which key and base URL would be used, and where they come from (key masked); under --emulator, the emulator\'s',
  examples: ['csafe auth status', 'csafe auth status --json | jq -r .api_key_source', 'csafe --emulator auth status'],
  environment: ['CSAFE_API_KEY', 'CSAFE_BASE_URL', ...PROFILE_VARIABLES, 'CSAFE_EMULATOR_DATA_DIR', 'COLUMNS'],
};
