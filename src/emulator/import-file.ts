import { createReadStream } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { dataObjectSchema, type DataObject, type NamespaceSchema } from '../schemas/data.js';
import { describeProblem, problemsFromZod } from '../schemas/issues.js';
import { nestingProblem } from './body.js';

/** Longer lines fail the import rather than grow memory. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;
const TOO_LONG = Symbol('the next line is too long');

export type CheckOutcome = { data_count: number } | { error: string };

/**
 * Checks an uploaded JSONL file a chunk at a time, so memory stays flat whatever its size: each
 * non-blank line must be a data object in which `fault` finds nothing wrong. The first line that
 * fails fails the import, named by its number. CRLF line ends and a UTF-8 BOM are tolerated.
 */
export async function checkImportFile(path: string, fault: (object: DataObject) => string | undefined): Promise<CheckOutcome> {
  let count = 0;
  let lineNumber = 0;
  for await (const lines of lineBatches(path)) {
    if (lines === TOO_LONG) return { error: `line ${lineNumber + 1}: longer than ${MAX_LINE_BYTES} bytes` };
    for (const line of lines) {
      lineNumber++;
      const object = objectOf(line);
      if (object === undefined) continue;
      const problem = typeof object === 'string' ? object : fault(object);
      if (problem !== undefined) return { error: `line ${lineNumber}: ${problem}` };
      count++;
    }
  }
  return { data_count: count };
}

/**
 * checkImportFile with the namespace schema's unprocessable rule, in a worker thread: a big
 * import is CPU work for seconds, which would slow every upload and request arriving meanwhile.
 * Aborting the signal terminates the worker.
 */
export function checkInWorker(path: string, schema: NamespaceSchema, signal: AbortSignal): Promise<CheckOutcome> {
  signal.throwIfAborted();
  const worker = new Worker(new URL('./import-check-worker.js', import.meta.url), { workerData: { path, schema } });
  const stop = () => void worker.terminate();
  signal.addEventListener('abort', stop, { once: true });
  return new Promise<CheckOutcome>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(signal.aborted ? signal.reason : new Error(`the import check stopped with exit code ${code}`)));
  }).finally(() => signal.removeEventListener('abort', stop));
}

/** The objects of a file that checkImportFile passed, a chunk's worth at a time. */
export async function* importedObjects(path: string): AsyncGenerator<DataObject[]> {
  for await (const lines of lineBatches(path)) {
    if (lines === TOO_LONG) return;
    yield lines.flatMap((line) => {
      const object = objectOf(line);
      return typeof object === 'object' ? [object] : [];
    });
  }
}

/**
 * Each chunk's complete lines, without their line ends; a line cut by a chunk boundary waits for
 * the next chunk. TOO_LONG, and no more, once the line being gathered passes MAX_LINE_BYTES.
 */
async function* lineBatches(path: string): AsyncGenerator<string[] | typeof TOO_LONG> {
  let carry: Buffer = Buffer.alloc(0);
  let first = true;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const buffer = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const lines: string[] = [];
    let start = first && buffer.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0;
    first = false;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      lines.push(lineText(buffer, start, end));
      start = end + 1;
    }
    carry = buffer.subarray(start);
    yield lines;
    if (carry.length > MAX_LINE_BYTES) {
      yield TOO_LONG;
      return;
    }
  }
  if (carry.length > 0) yield [lineText(carry, 0, carry.length)];
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const lineText = (buffer: Buffer, start: number, end: number) =>
  buffer.toString('utf8', start, end > start && buffer[end - 1] === 0x0d ? end - 1 : end);

/** The object on a line; what is wrong with the line; or undefined for a blank line. */
function objectOf(line: string): DataObject | string | undefined {
  if (line.trim() === '') return undefined;
  const tooDeep = nestingProblem(line);
  if (tooDeep !== undefined) return tooDeep;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
  const parsed = dataObjectSchema.safeParse(value);
  return parsed.success ? parsed.data : problemsFromZod(parsed.error).map(describeProblem).join('; ');
}
