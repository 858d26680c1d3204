import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { isatty } from 'node:tty';
import { CsafeError, InputError, InterruptedError, UsageError } from '../errors.js';
import { writeStreamAtomic } from '../files/atomic-file.js';
import { descriptorNamed, givenDescriptor } from '../files/named-descriptor.js';
import { hintFor, remedyFor, writeErrorReason } from '../files/write-errors.js';
import { isBrokenPipe, type IOStreams } from '../terminal/io.js';
import { parseOutputFormat } from '../terminal/output.js';
import { escapeC1Controls, sanitizeStreamForTerminal } from '../terminal/sanitize.js';

/**
 * A downloaded file is printed as it came unless JSON was asked for (`-o ndjson` a line per
 * record, `--json` one array): it is a file, so neither the terminal nor the profile's output
 * changes it, and a table or TSV of it is refused. `command` and `file` say what was refused:
 * `batch download`, `the result is CSV`.
 */
export function downloadFormat(flags: { output?: string; json?: boolean }, command: string, file: string): 'json' | 'ndjson' | undefined {
  if (flags.json) return 'json';
  if (flags.output === undefined) return undefined;
  const format = parseOutputFormat(flags.output, '--output');
  if (format === 'table' || format === 'tsv') {
    throw new UsageError(`${command}: -o ${format}: ${file}; print it as it is (no -o), or as JSON rows with -o ndjson`);
  }
  return format;
}

/** Where a download goes: stdout, or a FILE written atomically; and whether a person reads it there. */
export interface Destination {
  /** undefined for stdout (no FILE, `-` or /dev/stdout). */
  path: string | undefined;
  /** stdout that is a terminal, or a FILE that is one (`/dev/tty`, `/dev/stderr` at a terminal). */
  terminal: boolean;
  /** Ends a wait for a named pipe's reader: the download is all the run is doing. */
  signal?: AbortSignal;
  /**
   * The command that fetches the content again, for the hint when the FILE cannot be written,
   * where running the same command again would do more than fetch it (send another batch).
   */
  fetchAgain?: string;
}

/**
 * `-`, and the names of this process's stdout (/dev/stdout, /dev/fd/1), are written through it:
 * opened by name, the file a shell redirected stdout to (`>> all.jsonl`) would be replaced whole,
 * what it held before lost. Another descriptor (`/dev/fd/3`) is written through too (see
 * atomic-file), and one not open is refused here, before anything is downloaded.
 */
export async function destinationOf(io: IOStreams, file: string | undefined, signal?: AbortSignal, fetchAgain?: string): Promise<Destination> {
  const path = file === '-' || (file !== undefined && descriptorNamed(file) === 1) ? undefined : file;
  if (path !== undefined) givenDescriptor(path);
  const terminal = path === undefined ? io.stdoutIsTTY : await isTerminal(path);
  return { path, terminal, ...(signal !== undefined && { signal }), ...(fetchAgain !== undefined && { fetchAgain }) };
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

/**
 * A download as it came, byte for byte, except on a terminal, where its control characters are
 * shown in caret notation (a file cannot write the clipboard or clear the screen). `what` names it
 * in the note once a FILE is written: `the result of the batch`.
 */
export function writeDownloadedBytes(io: IOStreams, destination: Destination, body: AsyncIterable<Uint8Array>, what: string): Promise<void> {
  return write(io, destination.terminal ? sanitizeStreamForTerminal(body) : body, destination, what);
}

/** A download converted to JSON text. On stdout, io escapes the C1 controls JSON leaves raw; a FILE that is a terminal gets the same. */
export function writeDownloadedJson(io: IOStreams, destination: Destination, text: AsyncIterable<string>, what: string): Promise<void> {
  return write(io, destination.path !== undefined && destination.terminal ? mapChunks(text, escapeC1Controls) : text, destination, what);
}

async function* mapChunks(chunks: AsyncIterable<string>, change: (text: string) => string): AsyncGenerator<string> {
  for await (const chunk of chunks) yield change(chunk);
}

/**
 * A FILE that could not be written (exit 2): the reason in words, naming the FILE as given, not
 * the temporary file beside it where the write failed (the FILE itself is left as it was).
 */
function destinationError(path: string, error: unknown, fetchAgain: string | undefined): CsafeError {
  if ((error as Error)?.name === 'AbortError') return new InterruptedError();
  const reason = writeErrorReason(error);
  const hint = fetchAgain === undefined ? `${hintFor(reason)} (or give - for stdout)` : `${remedyFor(reason)}, then fetch it with: ${fetchAgain}`;
  return new InputError(`${path}: could not write: ${reason}`, { hint });
}

/** What the content's own source threw (the download broke off or stalled): no failure to write the FILE. */
class SourceFailure extends Error {
  constructor(readonly failure: unknown) {
    super('the content could not be read');
  }
}

async function* sourceFailuresMarked<T>(content: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    for await (const chunk of content) yield chunk;
  } catch (error) {
    throw new SourceFailure(error);
  }
}

async function write(io: IOStreams, content: AsyncIterable<string | Uint8Array>, { path, signal, fetchAgain }: Destination, what: string): Promise<void> {
  if (path === undefined) {
    for await (const chunk of content) await io.out(chunk);
    return;
  }
  try {
    await writeStreamAtomic(path, sourceFailuresMarked(content), { signal, waiting: () => io.note(`waiting for something to read ${path} (a named pipe)…`) });
  } catch (error) {
    // Passed on as stdout passes it on, for the caller to tell as a download that broke off: the FILE is fine, and was left as it was.
    if (error instanceof SourceFailure) throw error.failure;
    // A FILE that is a pipe (`/dev/fd/3`, a FIFO) whose reader went away: done, as for stdout (main ends the run 0).
    if (isBrokenPipe(error)) throw error;
    throw error instanceof CsafeError ? error : destinationError(path, error, fetchAgain);
  }
  io.note(`wrote ${what} to ${path}`);
}
