import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readCsvRows } from '../../../src/core/input/csv.js';
import { InputError, InterruptedError } from '../../../src/core/errors.js';

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
      [['a\n', '\nb\n', latin1('\xff\n')], 'in.csv:4: not UTF-8 at column 1'],
      [['a\rb\n', latin1('\xff\n')], 'in.csv:3: not UTF-8 at column 1'],
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
  const HINT = 'a field holding a quote, comma or line break must be in double quotes, with each quote inside doubled: "say ""hi"""';

  it("names the line of a quote closed too early in csv-parse's words, without its title or its own line count, and says how to quote", async () => {
    await assert.rejects(rows('a,b\n"x"y,z\n'), (error: unknown) =>
      error instanceof InputError &&
      error.message === 'in.csv:2: got "y" instead of delimiter, record delimiter, trimable character (if activated) or comment' &&
      error.hint === HINT);
    await assert.rejects(rows('a,"b" c\n'), (error: unknown) => error instanceof InputError && error.message.startsWith('in.csv:1: got " " instead of delimiter') && error.hint === HINT);
  });

  it('names a quote inside an unquoted field by the field counted from 1, as a user counts', async () => {
    await assert.rejects(rows('a,b,c\nx,y,z"w\n'), (error: unknown) =>
      error instanceof InputError && error.message === 'in.csv:2: field 3 has a quote but does not start with one (it starts "z")' && error.hint === HINT);
    await assert.rejects(rows('a,b\nq"x,y\n'), (error: unknown) => error instanceof InputError && error.message === 'in.csv:2: field 1 has a quote but does not start with one (it starts "q")');
  });

  it('a JSON Lines file given for a CSV is said to be JSON, not blamed on a stray quote', async () => {
    await assert.rejects(rows('{"text":"hi","user_id":"u1"}\n'), (error: unknown) =>
      error instanceof InputError && error.message === 'in.csv:1: is JSON, expected CSV' && error.hint === 'give a CSV file: a header row naming the columns, then one row a line');
    await assert.rejects(rows('[\n  {"Content": "hi"}\n]\n'), (error: unknown) => error instanceof InputError && error.message === 'in.csv:2: is JSON, expected CSV');
  });

  it('names a file it cannot read, and passes Ctrl-C on as it is', async () => {
    const failing = (error: Error) => ({ name: 'in.csv', open: () => new Readable({ read() { this.destroy(error); } }) });
    const consume = async (input: { name: string; open: () => Readable }) => {
      for await (const _ of readCsvRows(input));
    };
    await assert.rejects(consume(failing(Object.assign(new Error('i/o error'), { code: 'EIO' }))), (error: unknown) => error instanceof InputError && error.message === 'in.csv: i/o error');
    await assert.rejects(consume(failing(new InterruptedError())), InterruptedError);
  });

  it('counts a CR at the end of one chunk and the LF opening the next as one line end', async () => {
    assert.deepEqual(await rows('a\r', '\nb\r', 'c\n', '\rd\n'), [[1, ['a']], [2, ['b']], [3, ['c']], [5, ['d']]]);
  });
});
