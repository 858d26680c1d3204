import type { GroupDecl } from '../declaration.js';
import { settingsPut } from './put-command.js';

// `csafe settings`: the group of commands for a namespace's settings.

export const settingsGroup: GroupDecl = {
  name: 'settings',
  description: 'Namespace settings: the schema of its fields (PUT /v1/data/{namespace}/settings)',
  commands: [
    { ...settingsPut, run: async () => (await import('./put.js')).settingsPutAction },
  ],
};
