import { checkingPass } from './checking-pass.js';
import { CsafeError, InterruptedError } from '../errors.js';
import { FailedFile } from '../files/failed-file.js';
import type { SetAsideRecords } from '../files/checkpoint-file.js';
import type { BulkCounts } from './counts.js';
import type { IOStreams } from '../terminal/io.js';
import type { JsonRecord } from '../json/position.js';
import type { ReadRecord } from '../input/json-records.js';
import { countOf } from '../terminal/words.js';
import { JsonLinesChecker, type LineCheck } from '../input/jsonl-checker.js';
import { LINE_TOO_LONG_HINT, readError, type InputSource } from '../input/sources.js';

/** Which records of an input may be sent, and what becomes of those that may not: reported, set aside, or the end of the run. */

/**
 * An input record after checking: as it will be sent (its compact JSON, and the bytes it adds to
 * a request: itself and a comma), or its text and why it cannot be sent.
 */
export type CheckedRecord = { line: number; json: string; bytes: number } | { line: number; text: string; problem: string };

export type SendableRecord = Extract<CheckedRecord, { json: string }>;
export type InvalidRecord = Extract<CheckedRecord, { problem: string }>;

/**
 * A record with its position among all records of the input (from 1), valid or not: the number a
 * checkpoint keeps it by. A line is not one: a JSON array on one line holds every record on line 1.
 */
export type Numbered<T> = T & { position: number };

/** The records, each numbered by its position (Numbered). */
export async function* numbered<T extends object>(records: AsyncIterable<T>): AsyncGenerator<Numbered<T>> {
  let position = 0;
  for await (const record of records) yield { ...record, position: ++position };
}

/** What a command's records must be to be sent (data objects, stream parts). */
export interface RecordCheck {
  /** One record in the command's words, for messages: `object`, `part`. */
  noun: string;
  /** Why the service would refuse the value, or undefined when it would take it. */
  problemOf(value: unknown): string | undefined;
  /** --max-batch-bytes: no record may make a request larger on its own. */
  maxRequestBytes: number;
  /** The bytes a request adds around its records (see BODY_FRAME_BYTES), less the comma the last record does not have. */
  frameBytes: number;
}

export async function* checkRecords(records: AsyncIterable<JsonRecord>, check: RecordCheck): AsyncGenerator<CheckedRecord> {
  for await (const record of records) yield checkRecord(record, check);
}

/** One record checked: a line the fast check accepted (held to the byte cap only), the reader's own error (not JSON, …), or the command's check of its value. */
export function checkRecord(record: ReadRecord, check: RecordCheck): CheckedRecord {
  if ('accepted' in record) return withinCap(record.line, record.accepted, record.bytes + 1, check);
  return 'error' in record ? { line: record.line, text: record.text, problem: record.error } : checkValue(record.line, record.value, check);
}

export function checkValue(line: number, value: unknown, check: RecordCheck): CheckedRecord {
  const json = JSON.stringify(value);
  const problem = check.problemOf(value);
  if (problem !== undefined) return { line, text: json, problem };
  return withinCap(line, json, Buffer.byteLength(json) + 1, check);
}

/** A record the check takes, refused only when it alone makes a request over the cap; `bytes` is what it adds to a request (itself and a comma). */
function withinCap(line: number, json: string, bytes: number, check: RecordCheck): CheckedRecord {
  if (bytes + check.frameBytes > check.maxRequestBytes) {
    return { line, text: json, problem: `the ${check.noun} alone makes a request of ${bytes + check.frameBytes} bytes, over the cap of ${check.maxRequestBytes} (--max-batch-bytes)` };
  }
  return { line, json, bytes };
}

/**
 * Compact JSON takes at most this many UTF-8 bytes per character of the text it was parsed from:
 * white space goes, a character takes 3 bytes at most (a surrogate pair 4 for its 2), an escape
 * never grows, and a number grows the most (`1e20`, 4 characters, is written out in 21).
 */
const MAX_BYTES_PER_CHAR = 6;

/**
 * Why a record cannot be sent, found without serialising it (a record another worker sends,
 * checked before anything is sent, read with `measured`). Only a value whose text is long enough to be over the byte cap is serialised, to
 * measure it exactly; the pass that sends serialises each value once (checkValue).
 */
export function problemOfRecord(record: ReadRecord, check: RecordCheck): string | undefined {
  if ('accepted' in record) {
    const checked = checkRecord(record, check);
    return 'problem' in checked ? checked.problem : undefined;
  }
  if ('error' in record) return record.error;
  const problem = check.problemOf(record.value);
  if (problem !== undefined) return problem;
  if (record.chars !== undefined && record.chars * MAX_BYTES_PER_CHAR + 1 + check.frameBytes <= check.maxRequestBytes) return undefined;
  const checked = checkValue(record.line, record.value, check);
  return 'problem' in checked ? checked.problem : undefined;
}

/** `items.jsonl:3: id: expected a non-empty string id` */
export const problemLine = (inputName: string, record: { line: number; problem: string }) => `${inputName}:${record.line}: ${record.problem}`;

/** What a bulk command says when the check before sending found `invalid` records (of `noun`: 'invalid line', …), and nothing went. */
/** `dryRun`: a dry run reports every invalid record, --skip-invalid or not, so the way round it is not offered. */
export const nothingSentLine = (invalid: number, noun: string, dryRun = false) =>
  `nothing was sent: fix the ${countOf(invalid, noun)}${dryRun ? ' (a dry run reports every one, with --skip-invalid or without)' : ', or pass --skip-invalid FILE to send the rest'}`;

/**
 * --skip-invalid's file, where invalid records go as {line, error, record} while the rest is
 * sent. With --checkpoint a record set aside is dealt with, as an acknowledged one is: the
 * checkpoint records it once it is written here, so the same command run again neither reports
 * nor appends it, and counts it as skipped by the checkpoint.
 */
export class SkipFile extends FailedFile {
  private checkpoint?: SetAsideRecords;
  /** Records an earlier run set aside (the checkpoint holds them), passed over by this one. */
  earlier = 0;

  /** The run's checkpoint, given once it is open, before the first record is read. */
  keepIn(checkpoint: { setAside: SetAsideRecords } | undefined): void {
    this.checkpoint = checkpoint?.setAside;
  }

  /**
   * An invalid record, numbered `position` as the command numbers its records in its checkpoint:
   * counted as invalid, `report`ed and appended, then recorded in the checkpoint; or, one the
   * checkpoint holds, counted as skipped by it and nothing more.
   */
  async setAside(record: InvalidRecord & { position: number }, counts: Pick<BulkCounts, 'invalid' | 'skipped_checkpoint'>, report: () => void): Promise<void> {
    if (this.checkpoint?.holds(record.position)) {
      this.earlier++;
      counts.skipped_checkpoint++;
      return;
    }
    counts.invalid++;
    report();
    await this.append({ line: record.line, error: record.problem, record: record.text }, record.line);
    this.checkpoint?.add(record.position);
  }
}

/**
 * Records an earlier run delivered, as an exit code counts them: those the checkpoint skipped but
 * the invalid ones an earlier run set aside, which were never delivered. A run that sets aside new
 * records of an input of nothing but invalid ones is refused (2), not taken for one partly
 * delivered (5); one that finds nothing new has nothing to say, and ends 0.
 */
export const deliveredEarlier = (skippedByCheckpoint: number, setAside: SkipFile | undefined): number => skippedByCheckpoint - (setAside?.earlier ?? 0);

/** --skip-invalid: the record is reported as `file:line: problem` and set aside (SkipFile.setAside), and the run goes on. */
export function setAside(file: SkipFile, inputName: string, record: InvalidRecord & { position: number }, io: IOStreams, counts: Pick<BulkCounts, 'invalid' | 'skipped_checkpoint'>): Promise<void> {
  return file.setAside(record, counts, () => io.warn(problemLine(inputName, record)));
}

/**
 * --skip-invalid: the records to send, in input order, each valid one counted; an invalid one is
 * reported and set aside by its position, the number the checkpoint keeps valid ones by too.
 */
export async function* validRecords(records: AsyncIterable<Numbered<CheckedRecord>>, inputName: string, io: IOStreams, invalid: SkipFile, counts: Pick<BulkCounts, 'valid' | 'invalid' | 'skipped_checkpoint'>): AsyncGenerator<Numbered<SendableRecord>> {
  for await (const record of records) {
    if ('json' in record) {
      counts.valid++;
      yield record;
    } else await setAside(invalid, inputName, record, io, counts);
  }
}

/** The checking pass over a JSONL file before any of it is uploaded, a chunk at a time, so memory stays flat whatever its size. */
export async function checkEveryLine(source: InputSource, io: IOStreams, signal: AbortSignal, check: LineCheck): Promise<void> {
  await checkingPass(io, source.name, 'line', check.hint, async (pass) => {
    const checker = new JsonLinesChecker(check, pass.problem);
    const stream = source.open();
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (signal.aborted) throw new InterruptedError();
        checker.feed(chunk);
        pass.progress(`line ${checker.lines}`);
      }
      checker.end();
    } catch (error) {
      throw error instanceof CsafeError ? error : readError(source.name, error, LINE_TOO_LONG_HINT);
    } finally {
      if (source.name !== 'stdin') stream.destroy();
    }
  });
}
