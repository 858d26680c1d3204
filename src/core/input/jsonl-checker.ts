import { parseRecordAt } from '../json/nesting.js';
import { InputStart, LineTooLongError, MAX_LINE_BYTES, NO_RECORDS, sourceLine } from './json-records.js';

/** What every line of a file to upload must be: why one is not, and how to fix the file. */
export interface LineCheck {
  problemOf(value: unknown): string | undefined;
  /**
   * A fast check on the bytes of the line at `start` (core/json/scan): the index of the line feed
   * ending it when the line certainly has no problem, else -1 and the line is checked the exact way.
   */
  fastLineEnd?(bytes: Buffer, start: number, limit: number): number;
  /** The hint of the error that refuses the file: what each line must be, what to do. */
  hint: string;
}

const NEWLINE = 0x0a;

/**
 * Checks a JSON Lines file a chunk at a time, synchronously (no promise per line), with the same
 * verdicts as reading it with core/input/json-records and checking each value with `check.problemOf`:
 * the same line numbers, the same messages, the same errors for a line too long or an input with
 * no records. A line `check.fastLineEnd` accepts is not decoded or parsed at all; any other line
 * is judged the exact way. Chunks may be reused by the caller once `feed` returns: the only bytes
 * kept are those of the line a chunk leaves open, copied.
 */
export class JsonLinesChecker {
  /** Lines ended so far. */
  private line = 0;

  get lines(): number {
    return this.line;
  }
  private records = 0;
  private readonly start = new InputStart();
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly check: LineCheck,
    private readonly onProblem: (line: number, problem: string) => void,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  /** Checks the lines the chunk ends; a line too long throws LineTooLongError, as the reader does. */
  feed(chunk: Buffer): void {
    this.start.feed(chunk);
    let from = 0;
    if (this.pendingBytes > 0) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) return this.keep(chunk, 0);
      this.pending.push(chunk.subarray(0, end));
      this.exactLine(Buffer.concat(this.pending));
      this.pending = [];
      this.pendingBytes = 0;
      from = end + 1;
    }
    const fast = this.check.fastLineEnd;
    while (from < chunk.length) {
      // Line 1 may open with a BOM: it is left to the exact check, as is any line the fast check is not sure of.
      let end = fast !== undefined && this.line > 0 ? fast(chunk, from, chunk.length) : -1;
      if (end !== -1) {
        this.line++;
        this.records++;
      } else {
        end = chunk.indexOf(NEWLINE, from);
        if (end === -1) return this.keep(chunk, from);
        this.exactLine(chunk.subarray(from, end));
      }
      from = end + 1;
    }
  }

  /** The input ended: checks a last line without a line end; an input without records throws, as the reader does. */
  end(): void {
    if (this.pendingBytes > 0) this.exactLine(Buffer.concat(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
    if (this.start.firstByte === undefined) throw this.start.nothingError();
    if (this.records === 0) throw NO_RECORDS();
  }

  /** The bytes after the last line end of a chunk, copied: the chunk's buffer is read into again. */
  private keep(chunk: Buffer, from: number): void {
    this.pending.push(Buffer.from(chunk.subarray(from)));
    this.pendingBytes += chunk.length - from;
    // One byte more than the limit may still be the CR of a CRLF.
    if (this.pendingBytes > this.maxLineBytes + 1) throw new LineTooLongError(this.line + 1, this.maxLineBytes);
  }

  /** One line judged as record-reader and checkEveryLine judge it: decoded, blank lines skipped, JSON.parse, then the check. */
  private exactLine(bytes: Buffer): void {
    const { line, text } = sourceLine(bytes, ++this.line, this.maxLineBytes);
    if (text.trim() === '') return;
    this.records++;
    const record = parseRecordAt(text, line);
    const problem = 'error' in record ? record.error : this.check.problemOf(record.value);
    if (problem !== undefined) this.onProblem(line, problem);
  }
}
