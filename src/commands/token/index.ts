import type { GroupDecl } from '../declaration.js';
import { tokenCreate } from './create-command.js';

// `csafe token`: the group of commands for short-lived access tokens.

export const tokenGroup: GroupDecl = {
  name: 'token',
  description: 'Short-lived access tokens',
  commands: [
    { ...tokenCreate, run: async () => (await import('./create.js')).tokenCreateAction },
  ],
};
