import type { ObjectEntry } from './objects.js';
import type { StoredRequest } from '../stores/data-records.js';
import type { DataStore } from '../stores/data-store.js';
import { EmulatorError } from '../http/errors.js';
import { importedEntry } from './imports.js';
import { baseUrlOf, reviewPath, reviewUrl } from '../http/links.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { checkLinkSignature } from '../stores/signing.js';

/**
 * Stands in for the service's review interface: the latest processed entry of an object, as JSON.
 * Opened from a browser, so the link's signature is its credential, not the API key.
 */
export const reviewRoutes: readonly Route[] = [{ method: 'GET', pattern: '/_emulator/review/:namespace/:id', maxBodyBytes: 0, auth: false, handle: showEntry }];

async function showEntry(ctx: RouteContext): Promise<RouteResult> {
  const { namespace = '', id = '' } = ctx.params;
  const query = new URL(ctx.req.url ?? '/', 'http://localhost').searchParams;
  if (!checkLinkSignature(ctx.state.data.secret, reviewPath(namespace, id), query)) {
    throw new EmulatorError(403, 'this review link is not signed by this emulator; open the url of a data record as it was given');
  }
  const link = (objectId: string) => reviewUrl(ctx.state.data.secret, baseUrlOf(ctx.req), namespace, objectId);
  const found = await latestEntry(ctx.state.data, namespace, id, baseUrlOf(ctx.req), link);
  if (found === undefined) throw new EmulatorError(404, `no processed object "${id}" in namespace "${namespace}"`);
  return { status: 200, body: { namespace, ...found } };
}

/** Looks through the namespace's requests, newest first: slow after big imports, but a review link is opened by hand. */
export async function latestEntry(store: DataStore, namespace: string, id: string, baseUrl: string, link: (id: string) => string) {
  for (const requestId of await store.requestIds(namespace)) {
    const entry = await entryIn(store, await store.request(requestId), id, baseUrl, link);
    if (entry !== undefined) return { request_id: requestId, ...entry };
  }
  return undefined;
}

async function entryIn(
  store: DataStore,
  record: StoredRequest | undefined,
  id: string,
  baseUrl: string,
  link: (id: string) => string,
): Promise<ObjectEntry | undefined> {
  if (record?.kind === 'add') {
    const entry = record.entries.find((candidate) => candidate.id === id && candidate.output !== undefined);
    return entry === undefined ? undefined : { ...entry, url: link(entry.id) };
  }
  if (record?.outcome !== undefined && 'data_count' in record.outcome) return importedEntry(store, record, record.outcome, baseUrl, id);
  return undefined;
}
