import type { GroupDecl } from '../declaration.js';
import { batchCreate } from './create/create-command.js';
import { batchDownload } from './download/download-command.js';
import { batchGet } from './get-command.js';

// `csafe batch`: the group of commands for the older CSV batches.

export const batchGroup: GroupDecl = {
  name: 'batch',
  description: 'Older batches: review a CSV of content, follow it, download the result as CSV or NDJSON',
  commands: [
    { ...batchCreate, run: async () => (await import('./create/create.js')).batchCreateAction },
    { ...batchGet, run: async () => (await import('./get.js')).batchGetAction },
    { ...batchDownload, run: async () => (await import('./download/download.js')).batchDownloadAction },
  ],
};
