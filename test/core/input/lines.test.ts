import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nonBlankLines, type SourceLine } from '../../../src/core/input/json-records.js';
import { LineSplitter, LineTexts, LineTooLongError, MAX_LINE_BYTES, RecordReadError, type FastLine } from '../../../src/core/input/lines.js';

/** The non-blank lines a LineSplitter gives for the chunks, as the record reader takes them. */
function lines(pieces: Array<string | Buffer>, max?: number) {
  const splitter = new LineSplitter(max);
  const out: SourceLine[] = [];
  const take = nonBlankLines((line) => out.push(line));
  for (const piece of pieces) splitter.push(Buffer.from(piece), take);
  splitter.end(take);
  return out;
}

type Seen = { line: number; text: string } | { stopped: number; message: string };

/**
 * Every line visited (blank ones too), then how the read ended, for bytes cut at `cuts`. Each
 * piece is copied into a buffer overwritten once it is pushed, so a splitter that kept a chunk's
 * bytes would show it.
 */
function visited(bytes: Buffer, cuts: number[], max?: number, fast?: FastLine): Seen[] {
  const splitter = new LineSplitter(max);
  const seen: Seen[] = [];
  const visit = (chunk: Buffer, start: number, end: number, line: number) => void seen.push({ line, text: chunk.toString('latin1', start, end) });
  try {
    const edges = [0, ...cuts, bytes.length];
    for (let i = 0; i + 1 < edges.length; i++) {
      const piece = Buffer.from(bytes.subarray(edges[i], edges[i + 1]));
      splitter.push(piece, visit, fast);
      piece.fill(0x21);
    }
    splitter.end(visit);
  } catch (error) {
    assert.ok(error instanceof LineTooLongError, String(error));
    seen.push({ stopped: error.line!, message: error.message });
  }
  return seen;
}

/**
 * Every way to cut the bytes into two and into three pieces (empty pieces too) gives what one
 * piece gives; `judged` keeps what a fast check would have accepted out of the comparison.
 */
function sameForEveryCut(text: string | Buffer, max?: number, fast?: FastLine, judged = (_seen: Seen) => true): Seen[] {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const read = (cuts: number[]) => visited(bytes, cuts, max, fast).filter(judged);
  const whole = read([]);
  for (let a = 0; a <= bytes.length; a++) {
    assert.deepEqual(read([a]), whole, `cut at ${a} of ${JSON.stringify(bytes.toString('latin1'))}`);
    for (let b = a; b <= bytes.length; b++) assert.deepEqual(read([a, b]), whole, `cut at ${a} and ${b}`);
  }
  return whole;
}

/** Every line of `text` visited by a splitter told that `linesBefore` lines of the input were read before it. */
function readAfter(linesBefore: number, text: string): Seen[] {
  const splitter = new LineSplitter(MAX_LINE_BYTES, linesBefore);
  const seen: Seen[] = [];
  const visit = (bytes: Buffer, start: number, end: number, line: number) => void seen.push({ line, text: bytes.toString('latin1', start, end) });
  splitter.push(Buffer.from(text), visit);
  splitter.end(visit);
  return seen;
}

describe('LineSplitter', () => {
  it('numbers lines, dropping a BOM and CR line ends; blank lines keep their numbers but are not yielded', async () => {
    assert.deepEqual(lines(['\uFEFF{"a":1}\r\n\r\n  \n{"b":2}\r\n']), [
      { line: 1, text: '{"a":1}' },
      { line: 4, text: '{"b":2}' },
    ]);
  });

  it('keeps a BOM that does not open the input, and a CR inside a line', async () => {
    assert.deepEqual(lines(['a\n\uFEFFb\nc\rd\n']), [
      { line: 1, text: 'a' },
      { line: 2, text: '\uFEFFb' },
      { line: 3, text: 'c\rd' },
    ]);
  });

  it('joins a line cut across chunks, also inside a CRLF and inside a multi-byte character', async () => {
    const e = Buffer.from('é');
    assert.deepEqual(lines(['{"a":', '1}\r', '\n{"b":"', e.subarray(0, 1), e.subarray(1), '"}']), [
      { line: 1, text: '{"a":1}' },
      { line: 2, text: '{"b":"é"}' },
    ]);
  });

  it('yields a last line without a line end, and nothing for empty input', async () => {
    assert.deepEqual(lines(['x\ny']), [{ line: 1, text: 'x' }, { line: 2, text: 'y' }]);
    assert.deepEqual(lines([]), []);
    assert.deepEqual(lines(['\n\r\n']), []);
  });

  it('takes a line of exactly the limit, CRLF or not, and stops at one byte more, naming its line', async () => {
    const max = 16;
    const exact = 'x'.repeat(max);
    assert.deepEqual(lines([`a\n${exact}\r\n${exact}`], max), [
      { line: 1, text: 'a' },
      { line: 2, text: exact },
      { line: 3, text: exact },
    ]);
    const stoppedAt = (line: number) => (error: unknown) => error instanceof RecordReadError && error.line === line && error.message === 'line is longer than 0 MiB';
    assert.throws(() => lines([`a\n${exact}x\nb\n`], max), stoppedAt(2));
    assert.throws(() => lines([`a\n${exact}x`], max), stoppedAt(2));
    assert.deepEqual(lines([`a\n${exact}`, '\r', '\n'], max), [{ line: 1, text: 'a' }, { line: 2, text: exact }], 'the limit and a CR still waiting for its LF');
  });

  it('stops a long line before it is complete: memory holds at most the limit and one byte', () => {
    const splitter = new LineSplitter(16);
    const seen: number[] = [];
    const visit = (_bytes: Buffer, _start: number, _end: number, line: number) => void seen.push(line);
    splitter.push(Buffer.from('ok\n'), visit);
    assert.deepEqual(seen, [1]);
    splitter.push(Buffer.from('x'.repeat(10)), visit);
    splitter.push(Buffer.from('x'.repeat(7)), visit);
    assert.deepEqual(seen, [1], 'the limit and one byte (a CR, maybe)');
    assert.throws(() => splitter.push(Buffer.from('x'), visit), (error) => error instanceof LineTooLongError && error.line === 2);
  });

  it('joins a line of several hundred KiB cut into many chunks, whole, and the lines after it', () => {
    const long = Array.from({ length: 30_000 }, (_, n) => `${n},`).join('');
    const text = `${long}\nshort\n${long.slice(0, 70_000)}\n`;
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += 40_000) pieces.push(text.slice(at, at + 40_000));
    assert.deepEqual(lines(pieces).map((line) => line.text), [long, 'short', long.slice(0, 70_000)]);
  });

  it('names the limit in MiB', () => {
    assert.equal(MAX_LINE_BYTES, 10 * 1024 * 1024);
    assert.equal(new LineTooLongError(3, MAX_LINE_BYTES).message, 'line is longer than 10 MiB');
  });

  it('gives the same lines wherever the input is cut into two or three chunks', () => {
    const sample = '\uFEFF{"a":1}\r\n\r\n  \nb\rc\n\n\r\n{"é":"😀"}\r\ntail\r';
    assert.deepEqual(sameForEveryCut(sample), [
      { line: 1, text: '{"a":1}' },
      { line: 2, text: '' },
      { line: 3, text: '  ' },
      { line: 4, text: 'b\rc' },
      { line: 5, text: '' },
      { line: 6, text: '' },
      { line: 7, text: Buffer.from('{"é":"😀"}').toString('latin1') },
      { line: 8, text: 'tail' },
    ]);
  });

  it('drops a CRLF cut across chunks, and a CR ending the last line, but keeps a CR that no LF follows inside a line', () => {
    assert.deepEqual(sameForEveryCut('a\r\nb\r\r\nc\r'), [
      { line: 1, text: 'a' },
      { line: 2, text: 'b\r' },
      { line: 3, text: 'c' },
    ]);
  });

  it('drops a BOM cut across chunks on line 1 only, and a BOM alone is a blank line', () => {
    assert.deepEqual(sameForEveryCut('\uFEFFx\n\uFEFFy\n'), [
      { line: 1, text: 'x' },
      { line: 2, text: Buffer.from('\uFEFFy').toString('latin1') },
    ]);
    assert.deepEqual(sameForEveryCut('\uFEFF'), [{ line: 1, text: '' }]);
    assert.deepEqual(sameForEveryCut('\uFEFF\r\n'), [{ line: 1, text: '' }]);
    assert.deepEqual(readAfter(2, '\uFEFFz\n'), [{ line: 3, text: Buffer.from('\uFEFFz').toString('latin1') }], 'a BOM only opens line 1 of the input');
    const bomPart = Buffer.from([0xef, 0x78, 0x79, 0x7a, 0x0a]);
    assert.deepEqual(sameForEveryCut(bomPart), [{ line: 1, text: bomPart.toString('latin1', 0, 4) }], 'only the whole BOM is dropped');
  });

  it('gives no line for empty input, and one numbered line for each blank line', () => {
    assert.deepEqual(sameForEveryCut(''), []);
    assert.deepEqual(sameForEveryCut('\n\n\r\n'), [
      { line: 1, text: '' },
      { line: 2, text: '' },
      { line: 3, text: '' },
    ]);
  });

  it('takes a line exactly at the limit and stops one byte over, wherever the chunks end', () => {
    const max = 8;
    const exact = 'x'.repeat(max);
    assert.deepEqual(sameForEveryCut(`${exact}\n${exact}\r\n${exact}\r`, max), [
      { line: 1, text: exact },
      { line: 2, text: exact },
      { line: 3, text: exact },
    ]);
    const over = { stopped: 2, message: 'line is longer than 0 MiB' };
    assert.deepEqual(sameForEveryCut(`ab\n${exact}x\ncd\n`, max), [{ line: 1, text: 'ab' }, over]);
    assert.deepEqual(sameForEveryCut(`ab\n${exact}x`, max), [{ line: 1, text: 'ab' }, over]);
    assert.deepEqual(sameForEveryCut(`ab\n${exact}x\r\n`, max), [{ line: 1, text: 'ab' }, over]);
    assert.deepEqual(sameForEveryCut(`\uFEFF${exact.slice(3)}\nz`, max), [{ line: 1, text: exact.slice(3) }, { line: 2, text: 'z' }], 'the BOM counts');
    assert.deepEqual(sameForEveryCut(`\uFEFF${exact}\n`, max), [{ stopped: 1, message: 'line is longer than 0 MiB' }]);
  });

  it('lets a fast check accept lines straight from the chunk, many at a time: they are counted, not visited, and still held to the limit; empty lines are passed over', () => {
    // Accepts the lines of "ok" (with a CR, maybe) from `start` whose line feeds are in the chunk, all at once; a line cut by a chunk's end is visited.
    const isOk = (text: string) => /^o+k\r?$/.test(text);
    const fast: FastLine = {
      acceptedEnd: -1,
      accept(bytes, start, limit) {
        let accepted = 0;
        for (let end = bytes.indexOf(0x0a, start); end !== -1 && end < limit && isOk(bytes.toString('latin1', start, end)); end = bytes.indexOf(0x0a, start)) {
          accepted++;
          this.acceptedEnd = end;
          start = end + 1;
        }
        return accepted;
      },
    };
    const notOk = (seen: Seen) => !('text' in seen) || seen.line === 1 || !isOk(seen.text);
    assert.deepEqual(sameForEveryCut('\uFEFFok\nok\r\nook\nno\n\nok\nok\nlast', undefined, fast, notOk), [
      { line: 1, text: 'ok' },
      { line: 4, text: 'no' },
      { line: 8, text: 'last' },
    ]);
    const splitter = new LineSplitter(4);
    const seen: number[] = [];
    splitter.push(Buffer.from('ok\nook\r\nok\n'), (_b, _s, _e, line) => void seen.push(line), fast);
    assert.deepEqual([seen, splitter.lines, splitter.accepted], [[1], 3, 2], 'line 2 has 4 bytes and a CR: at the limit');
    const blank = new LineSplitter();
    blank.push(Buffer.from('ok\n'), () => undefined, fast);
    for (let chunk = 0; chunk < 3; chunk++) blank.push(Buffer.from('\n'.repeat(100_000)), () => assert.fail('an empty line was visited'), fast);
    assert.deepEqual([blank.lines, blank.accepted], [300_001, 0]);
    assert.throws(() => splitter.push(Buffer.from('ok\nok\nooook\nok\n'), () => undefined, fast), (error) => error instanceof LineTooLongError && error.line === 6, 'the long line of four accepted at once is named');
  });
});

describe('LineTexts', () => {
  it('decodes each line as UTF-8 would, an ASCII chunk once, any other line on its own', () => {
    const texts = new LineTexts();
    const splitter = new LineSplitter();
    const seen: string[] = [];
    const visit = (bytes: Buffer, start: number, end: number) => void seen.push(texts.of(bytes, start, end));
    for (const piece of ['{"a":1}\nplain\n{"b":', '"é"}\nmore\n', Buffer.from([0x78, 0xff, 0x0a]), 'end']) {
      const chunk = Buffer.from(piece);
      texts.next(chunk);
      splitter.push(chunk, visit);
    }
    splitter.end(visit);
    assert.deepEqual(seen, ['{"a":1}', 'plain', '{"b":"é"}', 'more', 'x\uFFFD', 'end']);
  });

  it('decodes a line cut across two ASCII chunks from the bytes the splitter joined, not from either chunk', () => {
    const texts = new LineTexts();
    const splitter = new LineSplitter();
    const seen: string[] = [];
    const visit = (bytes: Buffer, start: number, end: number) => void seen.push(texts.of(bytes, start, end));
    for (const piece of ['ab\ncd', 'ef\ngh']) {
      const chunk = Buffer.from(piece);
      texts.next(chunk);
      splitter.push(chunk, visit);
    }
    splitter.end(visit);
    assert.deepEqual(seen, ['ab', 'cdef', 'gh']);
  });
});
