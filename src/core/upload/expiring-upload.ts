import { AddressRefusedError, CsafeError, InterruptedError, mayHaveBeenApplied } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { DryRunEnded } from '../http/dry-run.js';
import type { IOStreams } from '../terminal/io.js';
import { formatBytes, startProgressBar } from '../terminal/progress.js';
import { uploadFile, type UploadFile, type UploadProgress } from './file-upload.js';

/** How an upload outlives its pre-signed address: when the address expires, another is asked for. */

/** Addresses per run: one, plus a fresh one each time an upload address has expired (a long stall, a wrong clock). */
const MAX_ADDRESSES = 3;

/** A pre-signed upload address and what the service issued it with (an import request, an import). */
export interface IssuedAddress<T> {
  issued: T;
  /** The id the address belongs to, for messages: req_…, imp_…. */
  id: string;
  url: string;
  /** ISO 8601: when the address stops working. */
  expiresAt: string;
  /**
   * Whether the service already holds a file at this address (it says so in the record the
   * address was issued with). Asked when the address expired on a retry: the attempt before it
   * may have landed with its answer lost, and a second address would import the file twice.
   */
  received?: () => Promise<boolean>;
}

export interface ExpiringUploadDeps {
  http: HttpClient;
  io: IOStreams;
  now: () => number;
}

export interface ExpiringUpload<T> {
  /** What came with the address the file was uploaded to. */
  issued: T;
  bytes: number;
  durationMs: number;
  /** Addresses asked for, the successful one included. */
  addresses: number;
  /** Upload attempts repeated after a failure (connection cut, 5xx) on the successful address. */
  retries: number;
}

/**
 * Asks for an upload address (`issue`), then PUTs the file there with a progress bar. A failed
 * upload is retried from the start by the HTTP core (a PUT to a pre-signed address replaces the
 * object, so it is safe to repeat; --max-retries sets how often) while the address is valid;
 * once it has expired — expiresAt has passed, or the store answers 403 AccessDenied "Request has
 * expired" — a new address is issued and the file uploaded there, the old id named on stderr.
 * An attempt whose answer was lost may have stored the file: before another address is asked
 * for, and when the last attempt fails so, the address's record is asked (IssuedAddress.received),
 * so that one run never imports a file twice nor fails on a file that arrived. An upload that
 * fails names the id it was issued for.
 */
export async function uploadBeforeExpiry<T>(
  deps: ExpiringUploadDeps,
  file: UploadFile,
  contentType: string,
  issue: () => Promise<IssuedAddress<T>>,
): Promise<ExpiringUpload<T>> {
  for (let addresses = 1; ; addresses++) {
    const address = await issue().catch((error: unknown) => {
      // A dry run stops at the request for the address: the upload it would be followed by is planned with it.
      if (error instanceof DryRunEnded) error.plan.requests.push(deps.http.plannedUpload(error.plan.requests.at(-1)!, 'PUT', { name: file.name ?? file.path, length: file.size, contentType }));
      throw error;
    });
    const last = addresses === MAX_ADDRESSES;
    // By our clock it has expired already; on the last address the store's clock has the final word.
    if (!last && Date.parse(address.expiresAt) <= deps.now()) {
      deps.io.note(`the upload address of ${address.id} expired at ${address.expiresAt}; requesting another`);
      continue;
    }
    const started = deps.now();
    const retriesBefore = deps.http.retries;
    const progress = await startProgressBar(deps.io, `Uploading ${formatBytes(file.size)}`);
    let sent = 0;
    const onProgress = (p: UploadProgress) => {
      sent = p.sent;
      progress.update(p);
    };
    try {
      const response = await uploadFile(deps.http, address.url, file, { now: deps.now, contentType, onProgress });
      return { issued: address.issued, bytes: file.size, durationMs: deps.now() - started, addresses, retries: response.retries };
    } catch (error) {
      // Before a lookup of the address's record, whose lines and retries are not the upload's.
      progress.stop();
      const retries = deps.http.retries - retriesBefore;
      const uploaded = () => ({ issued: address.issued, bytes: file.size, durationMs: deps.now() - started, addresses, retries });
      if (!isExpiredAddress(error)) {
        // The last attempt's answer was lost (a stall, a cut): the file may be there all the same, and a run again would import it twice.
        if (mayHaveBeenApplied(error) && (await receivedBefore(deps, address, 'the last upload attempt may have stored the file before it failed'))) return uploaded();
        // What the address was issued with exists, and its id is the user's only way to find it: the address need not name it.
        deps.io.note(notUploaded(address.id, error, sent === file.size));
        throw error;
      }
      if (retries > 0 && (await receivedBefore(deps, address, 'the upload address expired after an attempt whose answer was lost'))) return uploaded();
      // The key is fine (the address was issued): this is a failure to upload in time, not an authentication error.
      if (last) throw new CsafeError(`the upload address expired ${MAX_ADDRESSES} times (last: ${error.message}); nothing was sent`, { cause: error, hint: "check this machine's clock, and whether the upload stalls" });
      deps.io.note(`the upload address of ${address.id} expired during the upload; requesting another`);
    } finally {
      progress.stop();
    }
  }
}

/**
 * What became of the file of `id`, whose upload failed with `error`. Ctrl-C once the whole file
 * was sent leaves the store's answer unheard: the file may have landed, and a run again would
 * import it twice.
 */
function notUploaded(id: string, error: unknown, wholeFileSent: boolean): string {
  if (!(error instanceof InterruptedError)) return `${id} was created, but its file was not uploaded`;
  if (wholeFileSent) return `interrupted: ${id} was created and its file sent, but csafe left before the upload address answered: it may have the file`;
  return `interrupted: ${id} was created, but its file was not uploaded`;
}

/**
 * Whether an attempt whose answer was lost (a stall, a connection cut) landed all the same; `why`
 * the question is asked. A lookup that fails tells nothing: false, as before it was asked.
 */
async function receivedBefore(deps: ExpiringUploadDeps, address: IssuedAddress<unknown>, why: string): Promise<boolean> {
  if (address.received === undefined) return false;
  deps.io.note(`${why}; looking ${address.id} up to see whether its file arrived`);
  const received = await address.received().catch((error: unknown) => {
    if (error instanceof InterruptedError) throw error;
    deps.io.note(`could not look ${address.id} up: ${(error as Error).message}`);
    return false;
  });
  if (received) deps.io.note(`${address.id} has its file: the attempt whose answer was lost had uploaded it`);
  return received;
}

/**
 * The object store's answer to a pre-signed address used too late: 403 "Request has expired" (S3
 * codes it AccessDenied). Not every AccessDenied: one refused by the bucket's policy is no expiry,
 * and a fresh address would be refused the same.
 */
export const isExpiredAddress = (error: unknown): error is AddressRefusedError =>
  error instanceof AddressRefusedError && /request has expired/i.test(error.details.serviceMessage);
