import type { Readable } from 'node:stream';
import { AddressRefusedError, CsafeError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { IOStreams } from '../terminal/io.js';
import { isExpiredAddress } from '../upload/expiring-upload.js';

/** Lookups per download: the first, plus a fresh one each time the download address has expired. */
const MAX_LOOKUPS = 3;

/** A pre-signed download address, as the record that holds it (a batch, an import request) gives it. */
export interface DownloadAddress {
  url: string;
  /** Milliseconds since the epoch: when the address stops working. */
  expiresAt: number;
}

export interface ExpiringDownload {
  /** The id of the record that holds the address, for messages: bat_…, req_…. */
  id: string;
  /** What holds the address, for the note when it is looked up again: `batch`, `request`. */
  holder: string;
  /** The command that downloads it again, for the hint when every address expired or one was refused. */
  again: string;
  /** The address as first looked up. */
  address: DownloadAddress;
  /** Looks the record up again for a fresh address. */
  lookUp(): Promise<DownloadAddress>;
}

export interface DownloadDeps {
  http: HttpClient;
  io: IOStreams;
  now: () => number;
}

/**
 * GETs a download's body from its pre-signed address (no Authorization) and hands it to `onBody`
 * as it streams, never held whole. When the address has expired by our clock, or the store
 * answers 403 "Request has expired", the record is looked up again for a fresh one.
 */
export async function downloadBeforeExpiry(deps: DownloadDeps, download: ExpiringDownload, onBody: (body: Readable) => Promise<void>): Promise<void> {
  let address = download.address;
  for (let lookups = 1; ; lookups++) {
    // On the last lookup the store's clock has the final word: a clock far ahead must not loop.
    if (lookups === MAX_LOOKUPS || deps.now() < address.expiresAt) {
      try {
        await deps.http.request({ method: 'GET', url: address.url, timeoutMs: null, onBody });
        return;
      } catch (error) {
        // Refused otherwise: the hint names the download, as the command run again may do more (batch create --wait sends another batch).
        if (!isExpiredAddress(error)) throw error instanceof AddressRefusedError ? new AddressRefusedError(error.details, download.again) : error;
        // The key is fine (the record was looked up): this is a failure to download in time, not an authentication error.
        if (lookups === MAX_LOOKUPS) {
          throw new CsafeError(`the download address of ${download.id} expired ${MAX_LOOKUPS} times (last: ${error.message})`, {
            cause: error,
            hint: `check this machine's clock, and whether the download stalls; then run again: ${download.again}`,
          });
        }
      }
    }
    deps.io.note(`the download address of ${download.id} has expired; looking the ${download.holder} up again`);
    address = await download.lookUp();
  }
}
