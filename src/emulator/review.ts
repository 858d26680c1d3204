import { control } from './control.js';
import type { ObjectEntry } from './data-objects.js';
import type { StoredRequest } from './data-records.js';
import type { DataStore } from './data-store.js';
import { EmulatorError } from './errors.js';
import { importedEntry } from './imports.js';
import { baseUrlOf } from './links.js';
import type { Route, RouteContext, RouteResult } from './router.js';

/** Stands in for the service's review interface: the latest processed entry of an object, as JSON. */
export const reviewRoutes: readonly Route[] = [control('GET', '/_emulator/review/:namespace/:id', showEntry)];

async function showEntry(ctx: RouteContext): Promise<RouteResult> {
  const { namespace = '', id = '' } = ctx.params;
  const found = await latestEntry(ctx.state.data, namespace, id, baseUrlOf(ctx.req));
  if (found === undefined) throw new EmulatorError(404, `no processed object "${id}" in namespace "${namespace}"`);
  return { status: 200, body: { namespace, ...found } };
}

/** Looks through the namespace's requests, newest first: slow after big imports, but a review link is opened by hand. */
async function latestEntry(store: DataStore, namespace: string, id: string, baseUrl: string) {
  for (const requestId of await store.requestIds(namespace)) {
    const entry = await entryIn(store, await store.request(requestId), id, baseUrl);
    if (entry !== undefined) return { request_id: requestId, ...entry };
  }
  return undefined;
}

async function entryIn(store: DataStore, record: StoredRequest | undefined, id: string, baseUrl: string): Promise<ObjectEntry | undefined> {
  if (record?.kind === 'add') return record.entries.find((entry) => entry.id === id && entry.output !== undefined);
  if (record?.outcome !== undefined && 'data_count' in record.outcome) return importedEntry(store, record, record.outcome, baseUrl, id);
  return undefined;
}
