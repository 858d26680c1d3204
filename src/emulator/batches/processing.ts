import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { CsvError } from 'csv-parse';
import { CsvNotUtf8Error, csvRecords, type CsvRow } from '../../core/input/csv.js';
import { CONTENT_COLUMN, RESULT_COLUMNS } from '../../schemas/batches.js';
import { strongestDecision, textLabels } from '../classifier.js';
import { MAIN_THREAD_CHUNK_BYTES } from '../storage/jsonl-file.js';
import type { JobStore } from '../stores/job-store.js';
import { FILE_MODE, temporaryPathFor } from '../stores/files.js';
import { NO_COUNTS, type BatchCounts, type BatchRecord } from './records.js';
import { changePending } from './transitions.js';

/** How an uploaded batch CSV is processed: checked, counted, and classified row by row over the processing delay into a result CSV. */

/** How often, at most, a running batch saves its counts for GET to show. */
const PROGRESS_EVERY_MS = 200;

/**
 * Processes an uploaded batch CSV in the background: a first pass checks that the service can read
 * it (a header row with a Content column, every row as wide as the header) and counts its rows; a
 * second classifies each row and writes the result CSV, spread over `processingDelayMs` so the
 * counts can be watched moving. Both passes stream: memory stays flat whatever the size.
 */
export function processBatch(store: JobStore<BatchRecord>, record: BatchRecord, processingDelayMs: number, ended: (record: BatchRecord) => void): void {
  const batchId = record.batch_id;
  store.runInBackground(batchId, async (signal) => {
    const save = async (changes: Partial<BatchRecord>) => {
      if (signal.aborted) return;
      // Cancelled since: stop here, leaving the record as the cancel saved it.
      if (!(await changePending(store, batchId, changes))) throw new NoLongerPending();
      if (changes.status === 'SUCCESS' || changes.status === 'ERROR') {
        const saved = await store.get(batchId);
        if (saved !== undefined) ended(saved);
      }
    };
    await save({ status: 'PENDING', counts: NO_COUNTS });
    await classifyUpload(store, batchId, { processingDelayMs, signal, save }).catch((error: unknown) =>
      signal.aborted || error instanceof NoLongerPending ? undefined : save({ status: 'ERROR', error: `the batch could not be processed: ${(error as Error).message}` }),
    );
  });
}

/** The batch left PENDING (a cancel) while it was processed. */
class NoLongerPending extends Error {}

/**
 * The rows of the batch's upload, for a cancel that comes before processing has counted them: 0
 * when the CSV cannot be read (processing would end it as ERROR with no counts).
 */
export async function uploadRowCount(store: JobStore<BatchRecord>, batchId: string): Promise<number> {
  // Any failure to read is 0 too: by now processing is stopped, and a cancel that failed here would leave the batch PENDING for good.
  const rows = await countRows(store.uploadPath(batchId)).catch((): RowCount => ({ count: 0 }));
  return 'count' in rows ? rows.count : 0;
}

interface Run {
  processingDelayMs: number;
  signal: AbortSignal;
  save: (changes: Partial<BatchRecord>) => Promise<void>;
}

async function classifyUpload(store: JobStore<BatchRecord>, batchId: string, { processingDelayMs, signal, save }: Run): Promise<void> {
  const upload = store.uploadPath(batchId);
  const rows = await countRows(upload, signal);
  if ('error' in rows) return save({ status: 'ERROR', error: rows.error });
  const counts = { ...NO_COUNTS, batch: rows.count };
  await save({ counts });
  const result = store.resultPath(batchId);
  const temporary = temporaryPathFor(result);
  try {
    await writeResults(upload, temporary, { counts, processingDelayMs, signal, progress: () => save({ counts: { ...counts } }) });
    if (signal.aborted) return;
    await rename(temporary, result);
    await save({ status: 'SUCCESS', counts });
  } finally {
    await rm(temporary, { force: true });
  }
}

type RowCount = { count: number } | { error: string };

async function countRows(path: string, signal?: AbortSignal): Promise<RowCount> {
  let header: string[] | undefined;
  let count = 0;
  try {
    for await (const { line, fields } of csvRows(path, signal)) {
      if (header === undefined) {
        header = fields;
        if (!header.includes(CONTENT_COLUMN)) return { error: `the header row has no ${CONTENT_COLUMN} column; its columns are: ${header.join(', ')}` };
      } else if (fields.length !== header.length) {
        // csv-parse's own words for a ragged row, as it reports them when it checks the widths itself.
        return { error: `the CSV cannot be read: Invalid Record Length: expect ${header.length}, got ${fields.length} on line ${line}` };
      } else {
        count++;
      }
    }
  } catch (error) {
    if (error instanceof CsvError) return { error: `the CSV cannot be read: ${error.message}` };
    if (error instanceof CsvNotUtf8Error) return { error: `the CSV cannot be read: line ${error.line}: ${error.message}` };
    throw error;
  }
  return header === undefined ? { error: 'the CSV is empty; expected a header row with a Content column' } : { count };
}

interface Writing {
  counts: BatchCounts;
  processingDelayMs: number;
  signal: AbortSignal;
  progress: () => Promise<void>;
}

/** The result CSV: the result columns, then the caller's own; one row per row of the upload, in order. */
async function writeResults(upload: string, path: string, { counts, processingDelayMs, signal, progress }: Writing): Promise<void> {
  const out = createWriteStream(path, { mode: FILE_MODE });
  // Heard from the start: a write fails after the call that made it (a full disk), and one still in
  // the thread pool when processing stops (a reset) fails once the stream is destroyed. The next
  // write reports it, or nothing does when the processing has stopped; never an uncaught error.
  let failure: Error | undefined;
  out.on('error', (error) => {
    failure ??= error;
  });
  const write = async (text: string) => {
    if (failure !== undefined) throw failure;
    if (!out.write(text)) await once(out, 'drain');
  };
  const started = performance.now();
  let savedAt = started;
  let toRow: ((row: string[]) => string[]) | undefined;
  try {
    for await (const { fields: row } of csvRows(upload, signal)) {
      if (toRow === undefined) {
        toRow = resultRow(row);
        await write(csvLine([...RESULT_COLUMNS, ...ownColumns(row).map(({ name }) => name)]));
        continue;
      }
      const line = toRow(row);
      if (line[1] === 'SUCCESS') counts.success++;
      else counts.error++;
      await write(csvLine(line));
      const done = counts.success + counts.error;
      // Paced: row k is not done before k/batch of the processing delay has passed.
      const due = started + (processingDelayMs * done) / counts.batch - performance.now();
      if (due > 0 || performance.now() - savedAt >= PROGRESS_EVERY_MS) {
        await progress();
        savedAt = performance.now();
      }
      if (due > 0) await delay(due, undefined, { signal });
    }
    out.end();
    await finished(out);
  } finally {
    out.destroy();
  }
}

/** The caller's metadata columns: all but Content and any named like a result column, which the result's own would hide. */
const ownColumns = (header: readonly string[]) =>
  header.flatMap((name, index) => (name === CONTENT_COLUMN || (RESULT_COLUMNS as readonly string[]).includes(name) ? [] : [{ name, index }]));

/** For a header: how one row of the upload becomes one row of the result. */
function resultRow(header: readonly string[]): (row: string[]) => string[] {
  const content = header.indexOf(CONTENT_COLUMN);
  const expected = header.indexOf('Expected result');
  const own = ownColumns(header);
  return (row) => {
    const text = row[content] ?? '';
    const rest = [expected === -1 ? '' : row[expected] ?? '', ...own.map(({ index }) => row[index] ?? '')];
    // A row the service cannot process: there is nothing to review.
    if (text.trim() === '') return [text, 'ERROR', '', rest[0]!, '', ...rest.slice(1)];
    const { result, labels } = review(text);
    return [text, 'SUCCESS', result, rest[0]!, labels, ...rest.slice(1)];
  };
}

/**
 * The decision on one content item, as a decision's: the result is the strongest label decision
 * (match, review or not_match); the labels cell names the labels applied (those that matched), `;`-separated.
 */
function review(text: string): { result: string; labels: string } {
  const labels = textLabels([text]);
  const applied = labels.flatMap(({ label, decision }) => (decision === 'match' ? [label] : []));
  return { result: strongestDecision(labels.map(({ decision }) => decision)), labels: applied.join(';') };
}

/**
 * The rows of an upload as `batch create` checks them (core/input/csv): a ragged row is for the caller
 * to refuse. The file is closed however the reading ends: a reader that stops early (a missing
 * Content column, a ragged row, a cancel) would otherwise leave it open for the emulator's life.
 */
async function* csvRows(path: string, signal?: AbortSignal): AsyncGenerator<CsvRow> {
  const input = createReadStream(path, { highWaterMark: MAIN_THREAD_CHUNK_BYTES, signal });
  try {
    yield* csvRecords(input);
  } finally {
    input.destroy();
  }
}

/** One CSV line: a cell is quoted when it holds a comma, a quote, a line break, or space at an end. */
const csvLine = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\n`;
const csvCell = (cell: string) => (/[",\r\n]|^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

