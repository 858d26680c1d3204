import { isUtf8 } from 'node:buffer';

/**
 * Whether input is UTF-8, the one encoding csafe reads text in: a chunk at a time for the JSON
 * array reader and the CSV reader (a line at a time, the JSON Lines readers check it themselves),
 * and the words said of input that is not. Node built-ins only: the emulator reads CSV the same way.
 */

/** The problem with text that is not UTF-8; `where` says where (" at column 3"), or is empty. */
export const notUtf8 = (where: string) => `not UTF-8${where}: csafe reads UTF-8 text; convert the file, e.g. iconv -f latin1 -t utf-8`;

/**
 * Whether the bytes read so far are UTF-8, a chunk at a time (native isUtf8): a character a
 * chunk's end cuts is checked with the next chunk, and one the input's end cuts is not UTF-8.
 */
export class Utf8Check {
  private tail = Buffer.alloc(0);

  feed(chunk: Buffer): boolean {
    const bytes = this.tail.length === 0 ? chunk : Buffer.concat([this.tail, chunk]);
    const whole = wholeCharacters(bytes);
    this.tail = Buffer.from(bytes.subarray(whole));
    return isUtf8(bytes.subarray(0, whole));
  }

  end(): boolean {
    return this.tail.length === 0;
  }
}

/** How many bytes of `bytes` hold whole characters: all but a multi-byte character its end cuts short. */
function wholeCharacters(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}


/** The offset where the first character that is not UTF-8 starts in `bytes` (bytes.length when there is none). */
export function firstNotUtf8(bytes: Buffer): number {
  // Whether the first `length` bytes are UTF-8 but for a character their end cuts: true up to the first bad character, false after it.
  const utf8Before = (length: number) => isUtf8(bytes.subarray(0, wholeCharacters(bytes.subarray(0, length))));
  let good = 0;
  let bad = bytes.length + 1;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (utf8Before(middle)) good = middle;
    else bad = middle;
  }
  return wholeCharacters(bytes.subarray(0, good));
}
