import { parseRecordAt } from '../json/nesting.js';
import { InputStart, isBlankLine, NO_RECORDS, notUtf8Problem, sourceLine } from './json-records.js';
import { LineSplitter, MAX_LINE_BYTES, RecordReadError, type FastLine } from './lines.js';
import { shellWord } from '../cli/command-line.js';

/** A fast check of lines (core/json/scan) that may learn from each record the exact check accepted. */
export interface FastRecordLines extends FastLine {
  learn?(record: unknown): void;
}

/** What every line of a file to upload must be: why one is not, and how to fix the file. */
export interface LineCheck {
  problemOf(value: unknown): string | undefined;
  /** A fast check on the bytes of lines: a line it is not sure of is checked the exact way. */
  fast?: FastRecordLines;
  /** The hint of the error that refuses the file: what each line must be, what to do. */
  hint: string;
  /**
   * Given, a file that opens with `[` is refused at once as a JSON array, with this hint (how to
   * make it JSON Lines, or which command takes it), instead of one error per line of it.
   */
  arrayHint?: string;
}

const OPEN_BRACKET = 0x5b;

/** How to turn the JSON array `name` holds into JSON Lines, for an arrayHint. */
export const toJsonLines = (name: string, jsonLinesFile: string): string =>
  name === 'stdin' ? "pipe it through `jq -c '.[]'` first" : `make it JSON Lines with \`jq -c '.[]' ${shellWord(name)} > ${jsonLinesFile}\``;

/**
 * Checks a JSON Lines file a chunk at a time, synchronously (no promise per line), with the same
 * verdicts as reading it with core/input/json-records and checking each value with `check.problemOf`:
 * the same line numbers, the same messages, the same errors for a line too long or an input with
 * no records. A line `check.fast` accepts is not decoded or parsed at all; any other line
 * is judged the exact way. Chunks may be reused by the caller once `feed` returns.
 */
export class JsonLinesChecker {
  private readonly splitter: LineSplitter;
  private records = 0;
  private readonly start = new InputStart();

  constructor(
    private readonly check: LineCheck,
    private readonly onProblem: (line: number, problem: string) => void,
    maxLineBytes = MAX_LINE_BYTES,
  ) {
    this.splitter = new LineSplitter(maxLineBytes);
  }

  /** Lines ended so far. */
  get lines(): number {
    return this.splitter.lines;
  }

  /** Whether a byte other than white space has come: the input is not only blank lines. */
  get anyRecordSeen(): boolean {
    return this.start.firstByte !== undefined;
  }

  /** Whether a line that is not blank has ended and been checked: the file's first record has been judged. */
  get firstRecordChecked(): boolean {
    return this.records + this.splitter.accepted > 0;
  }

  /** Checks the lines the chunk ends; a line too long throws LineTooLongError, as the reader does. */
  feed(chunk: Buffer): void {
    if (this.start.feed(chunk) && this.start.firstByte === OPEN_BRACKET && this.check.arrayHint !== undefined) {
      throw new RecordReadError(undefined, 'is a JSON array, expected JSON Lines: one JSON object per line', this.check.arrayHint);
    }
    this.splitter.push(chunk, this.exactLine, this.check.fast);
  }

  /** The input ended: checks a last line without a line end; an input without records throws, as the reader does. */
  end(): void {
    this.splitter.end(this.exactLine);
    if (this.start.firstByte === undefined) throw this.start.nothingError();
    if (this.records + this.splitter.accepted === 0) throw NO_RECORDS();
  }

  /** One line judged as record-reader and checkEveryLine judge it: decoded, blank lines skipped, JSON.parse, then the check. */
  private readonly exactLine = (bytes: Buffer, start: number, end: number, line: number): void => {
    const source = sourceLine(bytes, start, end, line);
    const { text } = source;
    if (isBlankLine(text)) return;
    this.records++;
    if (source.notUtf8) return this.onProblem(line, notUtf8Problem(source));
    const record = parseRecordAt(text, line);
    if ('error' in record) return this.onProblem(line, record.error);
    const problem = this.check.problemOf(record.value);
    if (problem !== undefined) this.onProblem(line, problem);
    else this.check.fast?.learn?.(record.value);
  };
}
