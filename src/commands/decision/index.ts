import type { GroupDecl } from '../declaration.js';
import { decisionCreate } from './create-command.js';
import { decisionGet } from './get-command.js';

// `csafe decision`: the group of commands for the older decisions.

export const decisionGroup: GroupDecl = {
  name: 'decision',
  description: 'Decisions (older operations): one piece of content reviewed asynchronously',
  commands: [
    { ...decisionCreate, run: async () => (await import('./create.js')).decisionCreateAction },
    { ...decisionGet, run: async () => (await import('./get.js')).decisionGetAction },
  ],
};
