import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { isatty } from 'node:tty';
import { getBatch } from '../../../api/batches.js';
import type { Context } from '../../../context.js';
import { writeStreamAtomic } from '../../../core/files/atomic-file.js';
import { CsafeError } from '../../../core/errors.js';
import { isBrokenPipe } from '../../../core/terminal/io.js';
import { fileError } from '../../../core/input/sources.js';
import { isExpiredAddress } from '../../../core/upload/expiring-upload.js';
import { escapeC1Controls, sanitizeStreamForTerminal } from '../../../core/terminal/sanitize.js';
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
}

/** Lookups of the batch per download: one, plus a fresh one each time its download address has expired. */
const MAX_LOOKUPS = 3;

/**
 * Streams a batch's result CSV from its pre-signed download address (no Authorization) to a file
 * or stdout, never holding it whole, or with `rows` as one JSON object per row. The address lives
 * 1 hour: when it has passed that by our clock, or the store answers 403, the batch is looked up
 * again for a fresh one.
 */
export async function downloadResult(ctx: Context, batch: Batch, target: DownloadTarget): Promise<void> {
  const http = await ctx.http();
  let current = batch;
  let fetchedAt = ctx.now();
  for (let lookups = 1; ; lookups++) {
    const url = current.download_url;
    if (url === null || url === undefined) {
      throw new CsafeError(`batch ${current.batch_id} has no result to download (batch_status ${current.batch_status})`, {
        hint: `a result exists once the batch has succeeded: csafe batch get ${shellWord(current.batch_id)} --wait`,
      });
    }
    if (ctx.now() - fetchedAt < BATCH_URL_TTL_SECONDS * 1000) {
      try {
        await http.request({ method: 'GET', url, timeoutMs: null, onBody: (body) => deliver(ctx, current.batch_id, body, target) });
        return;
      } catch (error) {
        if (!isExpiredAddress(error)) throw error;
        // The key is fine (the batch was looked up): this is a failure to download in time, not an authentication error.
        if (lookups === MAX_LOOKUPS) {
          throw new CsafeError(`the download address of ${current.batch_id} expired ${MAX_LOOKUPS} times (last: ${error.message})`, {
            cause: error,
            hint: `check this machine's clock, and whether the download stalls; then run again: csafe batch download ${shellWord(current.batch_id)}`,
          });
        }
      }
    }
    ctx.io.note(`the download address of ${current.batch_id} has expired; looking the batch up again`);
    current = await getBatch(http, current.batch_id);
    fetchedAt = ctx.now();
  }
}

/**
 * The result to its file, or to stdout when `path` is undefined: JSON rows, or the CSV byte for
 * byte except on a terminal, where it is sanitised: stdout that is one, or a FILE that is one
 * (`/dev/stdout` or `/dev/tty` at a terminal). Its formula cells are counted for a person at a
 * terminal (stderr), to be warned, or escaped when asked.
 */
async function deliver(ctx: Context, batchId: string, body: Readable, target: DownloadTarget): Promise<void> {
  const path = target.path === '-' ? undefined : target.path;
  const toTerminal = path === undefined ? ctx.io.stdoutIsTTY : await isTerminal(path);
  if (target.rows) {
    const rows = resultRowsAsJson(body, target.rows);
    // On stdout, ctx.io escapes the C1 controls JSON leaves raw; a FILE that is a terminal gets the same.
    return write(ctx, path !== undefined && toTerminal ? mapChunks(rows, escapeC1Controls) : rows, path);
  }
  const formulas = new FormulaCells(Boolean(target.escapeFormulas));
  // Counting costs a pass over every byte: only when someone is there to warn, or the cells are to be escaped.
  const scanned = target.escapeFormulas || ctx.io.stderrIsTTY ? formulas.pass(body) : body;
  await write(ctx, toTerminal ? sanitizeStreamForTerminal(scanned) : scanned, path);
  if (!target.escapeFormulas && formulas.count > 0) warnOfFormulas(ctx, batchId, formulas.count, path);
}

/** Whether `path` names a terminal: a character device that is one (not /dev/null), opened without becoming the controlling terminal. */
async function isTerminal(path: string): Promise<boolean> {
  const named = await stat(path).catch(() => undefined);
  if (named?.isCharacterDevice() !== true) return false;
  const handle = await open(path, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK).catch(() => undefined);
  try {
    return handle !== undefined && isatty(handle.fd);
  } finally {
    await handle?.close();
  }
}

async function* mapChunks(chunks: AsyncIterable<string>, change: (text: string) => string): AsyncGenerator<string> {
  for await (const chunk of chunks) yield change(chunk);
}

async function write(ctx: Context, content: AsyncIterable<string | Uint8Array>, path: string | undefined): Promise<void> {
  if (path === undefined) {
    for await (const chunk of content) await ctx.io.out(chunk);
    return;
  }
  try {
    await writeStreamAtomic(path, content);
  } catch (error) {
    // A FILE that is a pipe (`/dev/stdout | head`, a FIFO) whose reader went away: done, as for stdout (main ends the run 0).
    if (isBrokenPipe(error)) throw error;
    throw error instanceof CsafeError ? error : fileError(path, error);
  }
  ctx.io.note(`wrote the result of the batch to ${path}`);
}

/** A moderator may open the result in a spreadsheet, which would run such a cell (=HYPERLINK(…), say) as a formula. */
function warnOfFormulas(ctx: Context, batchId: string, count: number, path: string | undefined): void {
  // batch download, whichever command downloaded: `batch create`/`get --download` have no --escape-formulas. The global flags (profile, base URL) stay.
  const globals = ctx.argv.slice(0, commandIndex(ctx.argv));
  const again = csafeCommandLine([...globals, 'batch', 'download', batchId, ...(path === undefined ? [] : [path]), '--escape-formulas']);
  const cells = count === 1 ? '1 cell of the result starts' : `${count} cells of the result start`;
  ctx.io.warn(`warning: ${cells} with =, +, - or @, which a spreadsheet may run as a formula; to write them with a leading ': ${again}`);
}
