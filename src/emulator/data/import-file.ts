import { Worker } from 'node:worker_threads';
import { dataObjectProblem, type DataObject, type NamespaceSchema } from '../../schemas/data.js';
import { ObjectLines } from '../../core/json/scan.js';
import { checkJsonLinesSync, jsonLinesValues } from '../storage/jsonl-file.js';
import { embeddedFile } from '../../embedded.js';

/** How an import's file is checked (off the main thread) and its objects read back. */

export type CheckOutcome = { data_count: number } | { error: string };

/**
 * Each non-blank line of the file must be a data object in which `fault`, when there is one, finds
 * nothing wrong. Blocks: for a worker thread. Without a fault, a line csafe's own fast check is
 * sure of is counted unparsed, as csafe's check of the same file counts it.
 */
export function checkImportFile(path: string, fault: ((object: DataObject) => string | undefined) | undefined): CheckOutcome {
  const checked =
    fault === undefined
      ? checkJsonLinesSync(path, dataObjectProblem, new ObjectLines('id'))
      : checkJsonLinesSync(path, (value) => dataObjectProblem(value) ?? fault(value as DataObject));
  return 'error' in checked ? checked : { data_count: checked.count };
}

/**
 * checkImportFile with the namespace schema's unprocessable rule, in a worker thread: a big
 * import is CPU work for seconds, which would slow every upload and request arriving meanwhile.
 * Aborting the signal terminates the worker.
 */
export function checkInWorker(path: string, schema: NamespaceSchema, signal: AbortSignal): Promise<CheckOutcome> {
  signal.throwIfAborted();
  const worker = importCheckWorker({ path, schema });
  const stop = () => void worker.terminate();
  signal.addEventListener('abort', stop, { once: true });
  return new Promise<CheckOutcome>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(signal.aborted ? signal.reason : new Error(`the import check stopped with exit code ${code}`)));
  }).finally(() => signal.removeEventListener('abort', stop));
}

/** import-check-worker.js beside this module, or in the single executable, its code as the executable carries it. */
function importCheckWorker(workerData: { path: string; schema: NamespaceSchema }): Worker {
  const code = embeddedFile('import-check-worker.js');
  return code === undefined ? new Worker(new URL('./import-check-worker.js', import.meta.url), { workerData }) : new Worker(code, { eval: true, workerData });
}

/** The objects of a file that checkImportFile passed, a chunk's worth at a time. */
export const importedObjects = (path: string) => jsonLinesValues(path) as AsyncGenerator<DataObject[]>;
