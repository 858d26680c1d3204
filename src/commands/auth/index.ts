import type { GroupDecl } from '../declaration.js';
import { authLogin } from './login-command.js';
import { authLogout } from './logout-command.js';
import { authStatus } from './status-command.js';

// `csafe auth`: the group of commands that store, show and remove the API key.

export const authGroup: GroupDecl = {
  name: 'auth',
  description: 'Store, show and remove the API key',
  commands: [
    { ...authLogin, run: async () => (await import('./login.js')).authLoginAction },
    { ...authStatus, run: async () => (await import('./status.js')).authStatusAction },
    { ...authLogout, run: async () => (await import('./logout.js')).authLogoutAction },
  ],
};
