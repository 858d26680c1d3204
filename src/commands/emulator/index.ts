import type { GroupDecl } from '../declaration.js';
import { emulatorStart } from './start-command.js';

// `csafe emulator`: the group of commands that run the local service.

export const emulatorGroup: GroupDecl = {
  name: 'emulator',
  description: 'A local Content Safety Service for offline development and tests',
  commands: [
    { ...emulatorStart, run: async () => (await import('./start.js')).emulatorStartAction },
  ],
};
