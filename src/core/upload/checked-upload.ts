import type { LineCheck } from '../input/jsonl-checker.js';
import { ProblemTally } from '../bulk/checking-pass.js';
import { CsafeError, InputError, InterruptedError } from '../errors.js';
import { DryRunEnded } from '../http/dry-run.js';
import { uploadBeforeExpiry, type ExpiringUpload, type ExpiringUploadDeps, type IssuedAddress } from './expiring-upload.js';
import { JsonLinesChecker } from '../input/jsonl-checker.js';
import { LineTooLongError } from '../input/lines.js';
import { fileError, LINE_TOO_LONG_HINT, readError } from '../input/sources.js';
import { startSpinner } from '../terminal/spinner.js';
import { FileChunks, type UploadFile } from './file-upload.js';

/** How a JSON Lines file is uploaded only if every line of it is valid, in one read of the file. */

/** Thrown by the check of a chunk to stop the upload before that chunk is sent. */
class InvalidLineFound extends Error {}

/**
 * Uploads a JSON Lines file to a pre-signed address while checking every line: the file is read
 * once, and each chunk is checked before it is sent. The first chunk (all of a small file), and
 * on to the end of the first record, is checked before the address is asked for, so a wrong file
 * is refused with nothing requested. A
 * chunk with a problem is never sent: the upload stops before its last byte, so the store keeps
 * nothing (an object store drops a body shorter than its Content-Length), and the rest of the
 * file is checked, so the problems are reported as a check before the upload would report them:
 * `name:line: …`, then an InputError (exit 2) saying nothing was sent. A retry re-reads the file
 * but checks no chunk twice. `name` is how messages call the input.
 */
export async function uploadCheckedLines<T>(
  deps: ExpiringUploadDeps & { signal: AbortSignal },
  name: string,
  file: UploadFile,
  check: LineCheck,
  contentType: string,
  issue: () => Promise<IssuedAddress<T>>,
): Promise<ExpiringUpload<T>> {
  const tally = new ProblemTally(name, 'line', check.hint);
  const checker = new JsonLinesChecker(check, (line, problem) => tally.add(line, problem));
  const chunks = await FileChunks.open(file.path, file.size).catch((error: unknown) => {
    throw fileError(name, error);
  });
  let checked = 0;
  const checkChunk = (chunk: Buffer) => {
    if (deps.signal.aborted) throw new InterruptedError();
    checker.feed(chunk);
    checked += chunk.length;
    if (checked === file.size) checker.end();
    if (tally.count > 0) throw new InvalidLineFound();
  };
  try {
    try {
      await checkFirstChunk(deps, name, chunks, checker, checkChunk);
      const inspect = (chunk: Buffer, offset: number) => {
        if (offset >= checked) checkChunk(chunk);
        // A retry, or the blank lines opening the file, read chunks it checked from disk again: unchecked, unless the file is as it was.
        if (offset + chunk.length === file.size && chunks.mayHaveChanged) throw new CsafeError(`${name}: the file was written to while it was uploaded, after its lines were checked; the upload was stopped before its end, so nothing was kept`, { hint: 'run the import again once the file is complete' });
      };
      return await uploadBeforeExpiry(deps, { ...file, chunks, inspect }, contentType, issue);
    } catch (error) {
      // A dry run ends at the request for the address, before the upload would check the rest of the file: it is checked here instead.
      if (!(error instanceof InvalidLineFound) && !(error instanceof DryRunEnded)) throw error;
      await checkTheRest(deps, name, chunks, checker);
      tally.print(deps.io);
      tally.conclude(deps.io);
      throw error;
    }
  } catch (error) {
    tally.print(deps.io);
    if (error instanceof CsafeError || error instanceof DryRunEnded) throw error;
    const refused = readError(name, error, LINE_TOO_LONG_HINT);
    // A line too long stops the upload before its last byte, as a bad line does: the store keeps none of it.
    throw error instanceof LineTooLongError ? new InputError(`${refused.message}; nothing was sent`, { hint: refused.hint }) : refused;
  } finally {
    await chunks.close();
  }
}

/**
 * The first chunk, checked under the spinner a check before the upload would show; and, until
 * the first line that is not blank has ended, the chunks after it (read again by the upload): an
 * input of nothing but blank lines, or whose first record is wrong or over the line limit, is
 * refused before an address is asked for, not after. (At most the line limit is read so.)
 */
async function checkFirstChunk(deps: ExpiringUploadDeps, name: string, chunks: FileChunks, checker: JsonLinesChecker, checkChunk: (chunk: Buffer) => void): Promise<void> {
  const spinner = await startSpinner(deps.io, `Checking ${name}…`);
  try {
    const first = await chunks.next();
    if (first === undefined) return checkChunk(Buffer.alloc(0));
    checkChunk(first);
    if (checker.firstRecordChecked) return;
    for (let chunk = await chunks.next(); chunk !== undefined && !checker.firstRecordChecked; chunk = await chunks.next()) checkChunk(chunk);
    chunks.rewind();
  } finally {
    spinner.stop();
  }
}

/** After the chunk with a problem: the lines after it, for every problem to be reported, none sent. */
async function checkTheRest(deps: ExpiringUploadDeps & { signal: AbortSignal }, name: string, chunks: FileChunks, checker: JsonLinesChecker): Promise<void> {
  const spinner = await startSpinner(deps.io, `Checking ${name}…`);
  try {
    for (let chunk = await chunks.next(); chunk !== undefined; chunk = await chunks.next()) {
      if (deps.signal.aborted) throw new InterruptedError();
      checker.feed(chunk);
      spinner.update(`Checking ${name}: line ${checker.lines}`);
    }
    checker.end();
  } finally {
    spinner.stop();
  }
}
