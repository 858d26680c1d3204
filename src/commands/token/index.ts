import type { GroupDecl } from '../declaration.js';
import { tokenCreate } from './create-command.js';

export const tokenGroup: GroupDecl = {
  name: 'token',
  description: 'Short-lived access tokens',
  commands: [
    { ...tokenCreate, run: async () => (await import('./create.js')).tokenCreateAction },
  ],
};
