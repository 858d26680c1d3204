/** Where a CSV reader is: at the start of a cell, just inside its opening quote, inside a quoted or a plain cell, or after a quote inside a quoted cell (its end, or the first of a doubled quote). */
type State = 'cell-start' | 'quoted-start' | 'quoted' | 'quote-in-quoted' | 'plain';

/** The first characters a spreadsheet takes as the start of a formula (OWASP, "CSV Injection"): = + - @. */
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40]);

/** The mark a spreadsheet takes as "this cell is text" (OWASP's recommendation): `'=1+2` shows as =1+2, never runs. */
const TEXT_MARK = Buffer.from("'");

const QUOTE = 0x22;
const endsCell = (byte: number) => byte === 0x2c || byte === 0x0a || byte === 0x0d;
/** The bytes of a byte order mark (EF BB BF): one before the first header cell is not part of it. */
const inByteOrderMark = (byte: number) => byte === 0xef || byte === 0xbb || byte === 0xbf;

function next(state: State, byte: number): State {
  switch (state) {
    case 'cell-start':
      if (byte === QUOTE) return 'quoted-start';
      return endsCell(byte) || inByteOrderMark(byte) ? 'cell-start' : 'plain';
    case 'quoted-start':
    case 'quoted':
      return byte === QUOTE ? 'quote-in-quoted' : 'quoted';
    case 'quote-in-quoted':
      if (byte === QUOTE) return 'quoted';
      return endsCell(byte) ? 'cell-start' : 'plain';
    case 'plain':
      return endsCell(byte) ? 'cell-start' : 'plain';
  }
}

/**
 * The cells of a CSV that start with a formula character, found as the CSV streams through
 * (quoted cells with commas, doubled quotes and line breaks read as a CSV reader reads them):
 * counted, and with `escape` each given a leading `'`, inside its quotes when it has them.
 * It reads bytes, not text: every byte that matters is ASCII, which UTF-8 never uses inside
 * another character, so the rest passes byte for byte, chunk by chunk (memory stays flat), and
 * a chunk may end anywhere; the reader's state carries over to the next.
 */
export class FormulaCells {
  /** Cells seen so far that start with =, +, - or @. */
  count = 0;
  private state: State = 'cell-start';

  constructor(private readonly escape: boolean) {}

  async *pass(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) yield this.scan(chunk);
  }

  private scan(chunk: Uint8Array): Uint8Array {
    const pieces: Uint8Array[] = [];
    let copiedTo = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if ((this.state === 'cell-start' || this.state === 'quoted-start') && FORMULA_STARTS.has(byte)) {
        this.count++;
        if (this.escape) {
          pieces.push(chunk.subarray(copiedTo, i), TEXT_MARK);
          copiedTo = i;
        }
      }
      this.state = next(this.state, byte);
    }
    return pieces.length === 0 ? chunk : Buffer.concat([...pieces, chunk.subarray(copiedTo)]);
  }
}
