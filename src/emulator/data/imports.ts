import { link, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { DataObject } from '../../schemas/data.js';
import { processObject, type ObjectEntry } from './objects.js';
import type { ImportOutcome, ImportRequest, ImportSuccess } from '../stores/data-records.js';
import type { DataStore } from '../stores/data-store.js';
import { checkInWorker, importedObjects } from './import-file.js';
import { reviewUrl } from '../http/links.js';
import type { Webhooks } from '../webhooks/deliveries.js';
import { workflowEvent } from '../webhooks/events.js';

/** How an uploaded namespace import is processed, and its output (data_url) produced. */

/**
 * Checks an import's upload in the background, unless that is already under way here. Also
 * called when a record is read that has an upload but no outcome: the emulator that received
 * the upload stopped before it finished (a `csafe --emulator` run ends with its command).
 *
 * Only the check (valid lines, processable objects, the count) happens here; the per-object
 * output is produced when data_url is downloaded, which keeps ingestion at disk-reading speed.
 */
export function processImport(store: DataStore, record: ImportRequest, now: () => number, ended: (record: ImportRequest, outcome: ImportOutcome) => void): void {
  store.runInBackground(record.request_id, async (signal) => {
    const outcome = await checkUpload(store, record, signal).catch((error: unknown) =>
      signal.aborted ? undefined : { error: `the upload could not be processed: ${(error as Error).message}` },
    );
    if (outcome === undefined || signal.aborted) return;
    // Logged before the outcome is saved: a stop in between processes the import again, which the listing counts once.
    if ('data_count' in outcome) await store.logObjects(record.namespace, { import: record.request_id, at: now() });
    await store.saveRequest({ ...record, outcome });
    ended(record, outcome);
  });
}

/**
 * workflow.succeeded or workflow.failed for each object of a succeeded import, to the webhook
 * endpoints, due when the import ends; made in the background, object by object, while the
 * delivery queue has room (the rest are counted as dropped), so a large import costs what the
 * queue holds and no more.
 */
export function notifyImported(webhooks: Webhooks, store: DataStore, baseUrl: string, processingDelayMs: number) {
  return (record: ImportRequest, outcome: ImportOutcome): void => {
    if (!('data_count' in outcome) || !(webhooks.wanted('workflow.succeeded') || webhooks.wanted('workflow.failed'))) return;
    const endsAt = (record.uploaded_at ?? record.created_at) + processingDelayMs;
    const toEntry = entryMaker(store, record, outcome, baseUrl);
    void (async () => {
      let made = 0;
      for await (const objects of importedObjects(store.ingestedPath(record.request_id))) {
        for (const object of objects) {
          if (!webhooks.hasRoom('workflow.succeeded')) return webhooks.countDropped(outcome.data_count - made);
          const entry = toEntry(object);
          const event = workflowEvent(record.namespace, record.request_id, entry, entry.url);
          webhooks.notify(event.type, event, endsAt);
          made++;
        }
      }
    })().catch(() => undefined);
  };
}

async function checkUpload(store: DataStore, record: ImportRequest, signal: AbortSignal): Promise<ImportOutcome> {
  const schema = await store.settings(record.namespace);
  const ingested = store.ingestedPath(record.request_id);
  // A hard link: a later re-upload replaces the upload, but what was processed stays as it was.
  await rm(ingested, { force: true });
  await link(store.uploadPath(record.request_id), ingested);
  const checked = await checkInWorker(ingested, schema, signal);
  if ('error' in checked) return checked;
  return { data_count: checked.data_count, schema };
}

/** The content of data_url: one {"id","output","url"} line per object, in file order. */
export function importOutput(store: DataStore, record: ImportRequest, outcome: ImportSuccess, baseUrl: string): Readable {
  const toEntry = entryMaker(store, record, outcome, baseUrl);
  return Readable.from(
    (async function* () {
      for await (const objects of importedObjects(store.ingestedPath(record.request_id))) {
        yield objects.map((object) => `${JSON.stringify(toEntry(object))}\n`).join('');
      }
    })(),
  );
}

/** One imported object's entry, found by reading through the file. */
export async function importedEntry(store: DataStore, record: ImportRequest, outcome: ImportSuccess, baseUrl: string, id: string) {
  const toEntry = entryMaker(store, record, outcome, baseUrl);
  for await (const objects of importedObjects(store.ingestedPath(record.request_id))) {
    const object = objects.find((candidate) => candidate.id === id);
    if (object !== undefined) return toEntry(object);
  }
  return undefined;
}

const entryMaker =
  (store: DataStore, record: ImportRequest, outcome: ImportSuccess, baseUrl: string) =>
  (object: DataObject): ObjectEntry =>
    processObject(object, outcome.schema, reviewUrl(store.secret, baseUrl, record.namespace, object.id));
