import { PROFILE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe auth logout`: its declaration — flags, help and examples.

export const authLogout: VerbDecl = {
  name: 'logout',
  description: 'Remove the stored API key from the profile',
  examples: ['csafe auth logout', 'csafe --profile staging auth logout'],
  environment: PROFILE_VARIABLES,
};
