import type { Readable } from 'node:stream';
import { getBatch } from '../../../api/batches.js';
import type { Context } from '../../../context.js';
import { CsafeError } from '../../../core/errors.js';
import { destinationOf, writeDownloadedBytes, writeDownloadedJson } from '../../../core/download/destination.js';
import { downloadBeforeExpiry, type DownloadAddress } from '../../../core/download/expiring-download.js';
import { commandIndex, csafeCommandLine, shellWord } from '../../../core/cli/command-line.js';
import { BATCH_URL_TTL_SECONDS, type Batch } from '../../../schemas/batches.js';
import { FormulaCells } from './formula-cells.js';
import { resultRowsAsJson } from './result-rows.js';

// `csafe batch download`: fetches a finished batch's result to a file or stdout, renewing an expired
// download address.

export interface DownloadTarget {
  /** A file, written atomically; stdout when absent or `-`. */
  path?: string;
  /** One JSON object per row instead of the CSV: a line each (ndjson), or one array (json). */
  rows?: 'json' | 'ndjson';
  /** The CSV's cells that start with =, +, - or @ written with a leading `'` (--escape-formulas). */
  escapeFormulas?: boolean;
  /** The command that fetches it again, for the hint when the file cannot be written (see Destination). */
  fetchAgain?: string;
}

/**
 * Streams a batch's result CSV from its pre-signed download address to a file or stdout, never
 * holding it whole, or with `rows` as one JSON object per row. The address lives 1 hour from
 * when the batch was looked up: then, or when the store answers 403, the batch is looked up again.
 */
export async function downloadResult(ctx: Context, batch: Batch, target: DownloadTarget): Promise<void> {
  const http = await ctx.http();
  const addressOf = (current: Batch): DownloadAddress => {
    const url = current.download_url;
    if (url === null || url === undefined) {
      throw new CsafeError(`batch ${current.batch_id} has no result to download (batch_status ${current.batch_status})`, {
        hint: `a result exists once the batch has succeeded: csafe batch get ${shellWord(current.batch_id)} --wait`,
      });
    }
    return { url, expiresAt: ctx.now() + BATCH_URL_TTL_SECONDS * 1000 };
  };
  const download = {
    id: batch.batch_id,
    holder: 'batch',
    again: target.fetchAgain ?? `csafe batch download ${shellWord(batch.batch_id)}`,
    address: addressOf(batch),
    lookUp: async () => addressOf(await getBatch(http, batch.batch_id)),
  };
  await downloadBeforeExpiry({ http, io: ctx.io, now: () => ctx.now() }, download, (body) => deliver(ctx, batch.batch_id, body, target));
}

/**
 * The result to its file, or to stdout: JSON rows, or the CSV byte for byte except on a terminal.
 * Its formula cells are counted for a person at a terminal (stderr), to be warned, or escaped
 * when asked.
 */
async function deliver(ctx: Context, batchId: string, body: Readable, target: DownloadTarget): Promise<void> {
  const destination = await destinationOf(ctx.io, target.path, ctx.signal, target.fetchAgain);
  if (target.rows) return writeDownloadedJson(ctx.io, destination, resultRowsAsJson(body, target.rows), RESULT);
  const formulas = new FormulaCells(Boolean(target.escapeFormulas));
  // Counting costs a pass over every byte: only when someone is there to warn, or the cells are to be escaped.
  const scanned = target.escapeFormulas || ctx.io.stderrIsTTY ? formulas.pass(body) : body;
  await writeDownloadedBytes(ctx.io, destination, scanned, RESULT);
  if (!target.escapeFormulas && formulas.count > 0) warnOfFormulas(ctx, batchId, formulas.count, destination.path);
}

const RESULT = 'the result of the batch';

/** A moderator may open the result in a spreadsheet, which would run such a cell (=HYPERLINK(…), say) as a formula. */
function warnOfFormulas(ctx: Context, batchId: string, count: number, path: string | undefined): void {
  // batch download, whichever command downloaded: `batch create`/`get --download` have no --escape-formulas. The global flags (profile, base URL) stay.
  const globals = ctx.argv.slice(0, commandIndex(ctx.argv));
  const again = csafeCommandLine([...globals, 'batch', 'download', batchId, ...(path === undefined ? [] : [path]), '--escape-formulas']);
  const cells = count === 1 ? '1 cell of the result starts' : `${count} cells of the result start`;
  ctx.io.warn(`warning: ${cells} with =, +, - or @, which a spreadsheet may run as a formula; to write them with a leading ': ${again}`);
}
