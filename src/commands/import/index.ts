import type { GroupDecl } from '../declaration.js';
import { importCreate } from './create-command.js';
import { importGet } from './get-command.js';

// `csafe import`: the group of commands for the older imports.

export const importGroup: GroupDecl = {
  name: 'import',
  description: 'Older imports: upload a JSONL file of {"type", "data"} lines (POST /v1/import); for namespace data, see `data import`',
  commands: [
    { ...importCreate, run: async () => (await import('./create.js')).importCreateAction },
    { ...importGet, run: async () => (await import('./get.js')).importGetAction },
  ],
};
