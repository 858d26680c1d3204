import type { Readable } from 'node:stream';
import { getDownloadUrl, getRequest } from '../../../api/data.js';
import { errorMessage, mayLackEndpoint } from '../../../api/responses.js';
import { sameServiceCommand, shellWord } from '../../../core/cli/command-line.js';
import { downloadBeforeExpiry, type DownloadAddress, type DownloadDeps } from '../../../core/download/expiring-download.js';
import { ApiError, CsafeError, UnexpectedResponseError } from '../../../core/errors.js';
import { readJsonRecords } from '../../../core/input/json-records.js';
import { MAX_LINE_BYTES, RecordReadError } from '../../../core/input/lines.js';
import { isImportRecord, type DownloadUrlRecord, type RequestRecord } from '../../../schemas/data.js';

// A request's output as a file: what `data download` streams, and where an add request too large
// to come inline (413) is read from, object by object, never held whole.

/** What reading a request needs: the service, and the run's arguments, whose global flags the commands it prints keep. */
type RequestDeps = DownloadDeps & { argv: readonly string[] };

/**
 * Where a request's output is downloaded from, looked up again when the address expires. The
 * service's …/results/download-url serves either kind of request; a service without it (the
 * spec's: 404 or 405 there, and the request exists) gives an import's data_url in its record.
 */
function outputAddress(deps: Pick<RequestDeps, 'http' | 'argv'>, namespace: string, requestId: string): () => Promise<DownloadAddress> {
  const status = statusCommand(deps.argv, namespace, requestId);
  let endpointMissing = false;
  return async () => {
    if (!endpointMissing) {
      try {
        return addressOf(await getDownloadUrl(deps.http, namespace, requestId), status);
      } catch (error) {
        if (!mayLackEndpoint(error)) throw error;
        // A request that does not exist is a 404 here too: the record says which it is.
        endpointMissing = true;
      }
    }
    const record = await getRequest(deps.http, namespace, requestId);
    if (!isImportRecord(record)) {
      throw new CsafeError(`request ${record.request_id} is an add request, and this service has no download of its output`, { hint: `its objects and labels are in its record: ${status}` });
    }
    return addressOf(record, status);
  };
}

/** `csafe data status NS ID` to the service this run used: its global flags (--profile, --base-url …) kept. */
export const statusCommand = (argv: readonly string[], namespace: string, requestId: string) => sameServiceCommand(argv, `data status ${shellWord(namespace)} ${shellWord(requestId)}`);

function addressOf(record: RequestRecord | DownloadUrlRecord, status: string): DownloadAddress {
  const url = record.data_url;
  if (url === null || url === undefined || url === '') {
    // Only an import ends failed without an output: an add request that failed has its objects' errors in it.
    const hint = record.status === 'failed' ? `see why with: ${status}` : `a request has its output once it has ended (an import once it has succeeded): ${status} --wait`;
    throw new CsafeError(`request ${record.request_id} has no output to download (status ${record.status})`, { hint });
  }
  // An expiry we cannot read is left to the store: its 403 says when the address has expired.
  const expiresAt = Date.parse(record.data_expires_at ?? '');
  return { url, expiresAt: Number.isNaN(expiresAt) ? Infinity : expiresAt };
}

/** Downloads a request's output, handing its body to `onBody` as it streams; `known`: its …/results/download-url answer, already in hand. */
export async function downloadOutput(deps: RequestDeps, namespace: string, requestId: string, onBody: (body: Readable) => Promise<void>, known?: DownloadUrlRecord): Promise<void> {
  const lookUp = outputAddress(deps, namespace, requestId);
  const again = sameServiceCommand(deps.argv, `data download ${shellWord(namespace)} ${shellWord(requestId)}`);
  const address = known === undefined ? await lookUp() : addressOf(known, statusCommand(deps.argv, namespace, requestId));
  await downloadBeforeExpiry(deps, { id: requestId, holder: 'request', again, address, lookUp }, onBody);
}

/**
 * An output line is its input line and what the service added (labels, a url): it may pass the
 * limit of an input line, so the limit here is twice that.
 */
const MAX_OUTPUT_LINE_BYTES = 2 * MAX_LINE_BYTES;

/** The output's objects, read as any JSON records are (JSON Lines, or an array): a record that cannot be read is the service's fault. */
export async function* outputObjects(body: Readable, requestId: string): AsyncGenerator<unknown> {
  try {
    for await (const record of readJsonRecords(body, { allowEmpty: true, maxLineBytes: MAX_OUTPUT_LINE_BYTES })) {
      if ('error' in record) throw new UnexpectedResponseError(`the output of ${requestId}, line ${record.line}: ${record.error}`);
      yield record.value;
    }
  } catch (error) {
    if (!(error instanceof RecordReadError)) throw error;
    throw new UnexpectedResponseError(`the output of ${requestId}${error.line === undefined ? '' : `, line ${error.line}`}: ${error.message}`);
  }
}

/** An add request whose record is over the 5 MiB the service answers inline (413): its status, and its objects to download. */
export interface LargeRecord {
  large: true;
  namespace: string;
  request_id: string;
  status: string;
  /** Downloads the objects and hands them, as they are read, to `use`. */
  withObjects(use: (objects: AsyncIterable<unknown>) => Promise<void>): Promise<void>;
  /** What the objects downloaded so far said of the failed ones: the first few, and how many in all. */
  failed: { shown: string[]; count: number };
}

/** How many failed objects a failure line names; the rest it counts. */
export const FAILED_SHOWN = 3;

/** One failed object, as a failure line names it. */
export const failedObjectLine = (id: unknown, message: string) => `object "${String(id)}": ${message}`;

/** The objects as they stream, each that carries an error noted in `failed`. */
async function* noteFailed(objects: AsyncIterable<unknown>, failed: LargeRecord['failed']): AsyncGenerator<unknown> {
  for await (const object of objects) {
    const message = object !== null && typeof object === 'object' ? errorMessage(object) : undefined;
    if (message !== undefined && failed.count++ < FAILED_SHOWN) failed.shown.push(failedObjectLine((object as { id?: unknown }).id, message));
    yield object;
  }
}

export const isLargeRecord = (record: RequestRecord | LargeRecord): record is LargeRecord => 'large' in record && record.large === true;

/** A request's record; one too large to come inline (413) as a LargeRecord, whose objects are downloaded when printed. */
export async function requestRecord(deps: RequestDeps, namespace: string, requestId: string): Promise<RequestRecord | LargeRecord> {
  try {
    return await getRequest(deps.http, namespace, requestId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 413) throw error;
  }
  const head = await getDownloadUrl(deps.http, namespace, requestId).catch((error: unknown) => {
    // Not "no such request": the record was there, too large to come inline, with nowhere else to come from.
    if (mayLackEndpoint(error)) throw new CsafeError(`the record of ${requestId} is over the 5 MiB the service answers inline (413), and this service has no …/results/download-url to fetch it from`, { hint: 'ask the service\'s support for the request\'s output; its objects are stored either way', cause: error });
    throw error;
  });
  const failed: LargeRecord['failed'] = { shown: [], count: 0 };
  return {
    large: true,
    namespace: head.namespace ?? namespace,
    request_id: head.request_id,
    status: head.status,
    withObjects: (use) => downloadOutput(deps, namespace, requestId, (body) => use(noteFailed(outputObjects(body, requestId), failed)), head),
    failed,
  };
}
