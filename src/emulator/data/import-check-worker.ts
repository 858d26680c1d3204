import { parentPort, workerData } from 'node:worker_threads';
import type { NamespaceSchema } from '../../schemas/data.js';
import { unprocessableCheck } from './objects.js';
import { checkImportFile } from './import-file.js';

/** Runs checkImportFile off the main thread (see checkInWorker). */
const { path, schema } = workerData as { path: string; schema: NamespaceSchema };
parentPort!.postMessage(checkImportFile(path, unprocessableCheck(schema)));
