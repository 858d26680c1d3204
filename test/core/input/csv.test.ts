import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readCsvRows } from '../../../src/core/input/csv.js';
import { InputError } from '../../../src/core/errors.js';

const source = (...chunks: (string | Buffer)[]) => ({ name: 'in.csv', open: () => Readable.from(chunks.map((chunk) => Buffer.from(chunk))) });

const rows = async (...chunks: (string | Buffer)[]) => {
  const out: Array<[number, string[]]> = [];
  for await (const row of readCsvRows(source(...chunks))) out.push([row.line, row.fields]);
  return out;
};

describe('readCsvRows', () => {
  it('gives each record the line it starts on, a quoted line break counting as a line', async () => {
    assert.deepEqual(await rows('Content,n\n"two\nlines",1\nplain,2\n'), [
      [1, ['Content', 'n']],
      [2, ['two\nlines', '1']],
      [4, ['plain', '2']],
    ]);
  });

  it('accepts quoted commas and doubled quotes, a byte order mark and CRLF, also split across chunks', async () => {
    assert.deepEqual(await rows('\ufeffContent,n\r\n"a, b",1\r\n"say ""hi""', '",2\r\n'), [
      [1, ['Content', 'n']],
      [2, ['a, b', '1']],
      [3, ['say "hi"', '2']],
    ]);
  });

  it('counts CRLF, LF and CR inside quoted fields as one line break each, as an editor shows the lines; a blank line is no record', async () => {
    assert.deepEqual((await rows('Content\r\n"a\r\nb\nc\rd"\r\n\r\nnext\r\n\n')).map(([line]) => line), [1, 2, 7]);
  });

  it('passes rows of another width on for the caller to judge', async () => {
    assert.deepEqual(await rows('a,b\n1\n1,2,3\n'), [[1, ['a', 'b']], [2, ['1']], [3, ['1', '2', '3']]]);
  });

  it('stops at bytes that are not UTF-8, at their line and column, counting CRLF, LF and lone CR as csv-parse does, across chunks', async () => {
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const cases: [(string | Buffer)[], string][] = [
      [[latin1('Content,n\nh\xe9llo,1\n')], 'in.csv:2: not UTF-8 at column 2'],
      [['Content,n\r\n"two\r\nlines",1\r', '\nok,2\rnext,3\n', latin1('ab,\xff\n')], 'in.csv:6: not UTF-8 at column 4'],
      [['Content\nok\n', Buffer.from([0x61, 0xc3])], 'in.csv:3: not UTF-8 (a character cut short at the end of the input)'],
    ];
    for (const [chunks, message] of cases) {
      await assert.rejects(rows(...chunks), (error: unknown) => {
        assert.ok(error instanceof InputError);
        assert.equal(error.message.split(':').slice(0, 3).join(':'), message.split(':').slice(0, 3).join(':'));
        assert.match(error.message, /iconv -f latin1 -t utf-8$/);
        return true;
      });
    }
    assert.deepEqual(await rows('Content\n', Buffer.from([0xc3]), Buffer.from([0xa9, 0x0a])), [[1, ['Content']], [2, ['é']]]);
  });

  it('stops at a quote never closed, naming file:line', async () => {
    await assert.rejects(rows('Content\nok\n"never closed\n'), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.match(error.message, /^in\.csv:3: a quoted field starts on this line and is never closed$/);
      return true;
    });
  });
});
