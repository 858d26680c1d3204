import type { GroupDecl } from '../declaration.js';
import { dataAdd } from './add/add-command.js';
import { dataDownload } from './download-command.js';
import { dataImport } from './import/import-command.js';
import { dataStatus } from './status-command.js';

// `csafe data`: the group of commands for namespace data.

export const dataGroup: GroupDecl = {
  name: 'data',
  description: 'Namespace data: add objects, import files, follow requests to their labels, download a request\'s output',
  commands: [
    { ...dataAdd, run: async () => (await import('./add/add.js')).dataAddAction },
    { ...dataImport, run: async () => (await import('./import/import.js')).dataImportAction },
    { ...dataStatus, run: async () => (await import('./status.js')).dataStatusAction },
    { ...dataDownload, run: async () => (await import('./download.js')).dataDownloadAction },
  ],
};
