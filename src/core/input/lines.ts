import { isAscii, isUtf8 } from 'node:buffer';

/**
 * Where every line-based input is cut into lines, for csafe and the emulator alike (Node built-ins
 * only): JSON Lines read as records, the upload checks of `data import` and `import create`, the
 * emulator's reading of an uploaded import file, caption files and the events spool. One set of
 * rules: a UTF-8 BOM opening the input and a CR ending a line are not part of the line, blank lines
 * keep their numbers, a line over the limit is an error naming it, and a last line needs no line end.
 */

/**
 * Longest line (or array element) held in memory; a longer one is an error, never an
 * out-of-memory. The spec states no limit for import lines; 10 MiB is well above the 6 MB a
 * request may carry, so any object one can add can also be imported, and it is what csafe has
 * always told users. The emulator checks an import with the same value, so csafe's check and
 * the emulator's can never disagree about a line's length.
 */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** What stops a read: where (a line number, when there is one) and why, for the caller to name its input. */
export class RecordReadError extends Error {
  constructor(readonly line: number | undefined, reason: string, readonly hint?: string) {
    super(reason);
  }
}

/** A line over the limit: the input is most likely not JSON Lines at all. */
export class LineTooLongError extends RecordReadError {
  constructor(line: number, maxLineBytes: number) {
    super(line, `line is longer than ${Math.round(maxLineBytes / 1024 / 1024)} MiB`);
  }
}

/**
 * One line: bytes[start, end), without its line feed, a CR ending it, or the BOM opening line 1.
 * The bytes are good only during the call (they may be the caller's chunk, read into again, or
 * the splitter's own buffer): decode or copy what is kept.
 */
export type LineVisitor = (bytes: Buffer, start: number, end: number, line: number) => void;

/**
 * A check that accepts lines straight from the chunk, before the splitter looks for their ends. It
 * reads every byte of them anyway, so a line it accepts costs no search for its end, no visit and
 * no decoding; accepting many at once also saves a call a line. It is for JSON Lines, where a
 * blank line is nothing: with one, empty lines are counted but not visited.
 */
export interface FastLine {
  /** The chunk the next lines are in (the buffer may be one it saw before, holding new bytes). */
  next?(chunk: Buffer): void;
  /**
   * How many whole lines from `start` (their line feeds before `limit`) certainly need nothing
   * more, `acceptedEnd` then being the index of the line feed ending the last of them; 0 when it
   * is not sure of the line at `start`, which is then found and visited the usual way.
   */
  accept(bytes: Buffer, start: number, limit: number): number;
  acceptedEnd: number;
  /**
   * The lines it accepted, once the splitter has taken them (they are UTF-8): bytes[start, end),
   * `end` being the line feed ending the last of them, and `firstLine` the number of the first.
   * For a reader that keeps their text; a check that only judges them has no need of it.
   */
  took?(bytes: Buffer, start: number, end: number, firstLine: number, lines: number): void;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
export const UTF8_BOM: readonly number[] = [0xef, 0xbb, 0xbf];
/** The first buffer for a line cut by a chunk's end; it doubles as needed, up to the limit. */
const FIRST_CARRY_BYTES = 64 * 1024;
/** A carry buffer grown past this by a long line is let go once that line is done, so memory stays flat. */
const KEPT_CARRY_BYTES = 1024 * 1024;

/**
 * Cuts bytes into numbered lines a chunk at a time, synchronously (no promise per line): each line
 * a chunk completes is visited before `push` returns, with offsets into the chunk itself. Only
 * the line a chunk leaves open is copied (the caller may reuse its chunk), and never more than
 * the limit and one byte of it (a CR, maybe): a longer line throws LineTooLongError naming it, as
 * soon as that is certain. A visitor that throws stops the read at that line.
 */
export class LineSplitter {
  private carry = Buffer.alloc(0);
  private carried = 0;
  /** Lines ended so far. */
  private line: number;
  private fastAccepted = 0;

  /** `linesBefore`: lines of the input already read (and not given to this splitter), so no BOM is looked for. */
  constructor(private readonly maxLineBytes = MAX_LINE_BYTES, linesBefore = 0) {
    this.line = linesBefore;
  }

  /** Lines ended so far (the number of the last line visited, accepted or passed over). */
  get lines(): number {
    return this.line;
  }

  /** Lines the fast check accepted (each a record). */
  get accepted(): number {
    return this.fastAccepted;
  }

  /** Visits the lines the chunk completes; `fast`, when given, may accept a line first (line 1, which may hold a BOM, is always visited). */
  push(chunk: Buffer, visit: LineVisitor, fast?: FastLine): void {
    fast?.next?.(chunk);
    let from = 0;
    if (this.carried > 0) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) return this.keep(chunk, 0);
      this.keep(chunk.subarray(0, end), 0);
      const carried = this.carried;
      this.carried = 0;
      this.visitLine(this.carry, 0, carried, visit);
      if (this.carry.length > KEPT_CARRY_BYTES) this.carry = Buffer.alloc(0);
      from = end + 1;
    }
    while (from < chunk.length) {
      if (fast !== undefined && this.line > 0) {
        if (chunk[from] === NEWLINE) {
          from = this.passEmptyLines(chunk, from);
          continue;
        }
        const accepted = fast.accept(chunk, from, chunk.length);
        // The fast check reads bytes, not text: lines that are not UTF-8 are visited, to be refused as the reader refuses them.
        if (accepted > 0 && isUtf8(chunk.subarray(from, fast.acceptedEnd))) {
          const end = fast.acceptedEnd;
          // Lines of many megabytes in one chunk: rare, and their lengths checked only once they are accepted.
          if (end - from > this.maxLineBytes) this.checkLengths(chunk, from, end);
          fast.took?.(chunk, from, end, this.line + 1, accepted);
          this.line += accepted;
          this.fastAccepted += accepted;
          from = end + 1;
          continue;
        }
      }
      const end = chunk.indexOf(NEWLINE, from);
      if (end === -1) return this.keep(chunk, from);
      this.visitLine(chunk, from, end, visit);
      from = end + 1;
    }
  }

  /** Counts the empty lines from `from` without visiting them (a run of line feeds: gigabytes of them cost one loop); returns where the run ends. */
  private passEmptyLines(chunk: Buffer, from: number): number {
    let end = from;
    while (end < chunk.length && chunk[end] === NEWLINE) end++;
    this.line += end - from;
    return end;
  }

  /** The input ended: visits a last line that has no line end. */
  end(visit: LineVisitor): void {
    if (this.carried === 0) return;
    const carried = this.carried;
    this.carried = 0;
    this.visitLine(this.carry, 0, carried, visit);
  }

  /** The bytes from `from` to the end of `bytes`, copied onto the line not yet complete. */
  private keep(bytes: Buffer, from: number): void {
    const length = this.carried + bytes.length - from;
    // One byte more than the limit may still be the CR of a CRLF.
    if (length > this.maxLineBytes + 1) throw new LineTooLongError(this.line + 1, this.maxLineBytes);
    if (length > this.carry.length) this.grow(length);
    bytes.copy(this.carry, this.carried, from);
    this.carried = length;
  }

  private grow(length: number): void {
    let size = Math.max(this.carry.length, FIRST_CARRY_BYTES);
    while (size < length) size *= 2;
    const carry = Buffer.allocUnsafe(Math.min(size, this.maxLineBytes + 1));
    this.carry.copy(carry, 0, 0, this.carried);
    this.carry = carry;
  }

  private visitLine(bytes: Buffer, start: number, end: number, visit: LineVisitor): void {
    const line = ++this.line;
    end = this.checkLength(bytes, start, end);
    if (line === 1 && end - start >= UTF8_BOM.length && UTF8_BOM.every((byte, index) => bytes[start + index] === byte)) start += UTF8_BOM.length;
    visit(bytes, start, end, line);
  }

  /** Each line of bytes[from, end] (line feeds included) held to the limit, as if it had been visited. */
  private checkLengths(bytes: Buffer, from: number, end: number): void {
    for (let line = this.line + 1; from <= end; line++) {
      const lineEnd = bytes.indexOf(NEWLINE, from);
      this.checkLength(bytes, from, lineEnd, line);
      from = lineEnd + 1;
    }
  }

  /** The end of the line without the CR ending it; throws when what is left is over the limit (a BOM counts). */
  private checkLength(bytes: Buffer, start: number, end: number, line = this.line): number {
    if (end > start && bytes[end - 1] === CARRIAGE_RETURN) end--;
    if (end - start > this.maxLineBytes) throw new LineTooLongError(line, this.maxLineBytes);
    return end;
  }
}

/**
 * The text of visited lines, each chunk of pure ASCII (most inputs) decoded once as Latin-1, which
 * gives the same text several times faster than UTF-8 and costs a line only a slice; any other
 * line is decoded as UTF-8 on its own. Give it each chunk before the splitter gets it. A chunk is
 * decoded when its first line is asked for: with a fast check, most chunks have none visited.
 */
export class LineTexts {
  private chunk: Buffer | undefined;
  /** The chunk as Latin-1 text, undefined while not asked for or when it is not ASCII. */
  private text: string | undefined;
  private decoded = false;

  /** The chunk the next lines come from. */
  next(chunk: Buffer): void {
    this.chunk = chunk;
    this.text = undefined;
    this.decoded = false;
  }

  /** A visited line's text (U+FFFD where its bytes are not UTF-8). */
  of(bytes: Buffer, start: number, end: number): string {
    if (bytes !== this.chunk) return bytes.toString('utf8', start, end);
    if (!this.decoded) {
      this.decoded = true;
      this.text = isAscii(bytes) ? bytes.toString('latin1') : undefined;
    }
    return this.text !== undefined ? this.text.slice(start, end) : bytes.toString('utf8', start, end);
  }
}
