import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { checkBatchCsv } from '../../../src/commands/batch/create/check-csv.js';
import { closestName } from '../../../src/schemas/issues.js';
import { InputError } from '../../../src/core/errors.js';
import { bufferIO } from '../../helpers/io.js';

const check = async (text: string) => {
  const { io, stderr } = bufferIO();
  const source = { name: 'reviews.csv', open: () => Readable.from([Buffer.from(text)]) };
  try {
    return { rows: await checkBatchCsv(source, io, new AbortController().signal), stderr: stderr() };
  } catch (error) {
    return { error: error as InputError, stderr: stderr() };
  }
};

describe('checkBatchCsv', () => {
  it('counts the rows of a good file: quoted newline, embedded quotes, BOM and CRLF', async () => {
    const result = await check('\ufeffContent,source\r\n"two\r\nlines",app\r\n"say ""hi"", ok",web\r\n');
    assert.equal(result.rows, 2);
    assert.equal(result.stderr, '');
  });

  it('reports every ragged row and empty Content cell at the line the row starts on, and refuses the file', async () => {
    const result = await check('Content,source\n"multi\nline",app\nshort\nok,app\n  ,app\n,web,extra\n');
    assert.ok(result.error instanceof InputError);
    assert.equal(result.error.message, 'reviews.csv: 3 invalid rows; nothing was sent');
    assert.equal(result.stderr, [
      'reviews.csv:4: has 1 field, the header has 2',
      'reviews.csv:6: Content: is empty, expected the text or URL to review',
      'reviews.csv:7: has 3 fields, the header has 2',
      '',
    ].join('\n'));
  });

  it('names the columns found and the closest one when Content is missing', async () => {
    const result = await check('content,source\nhello,app\n');
    assert.ok(result.error instanceof InputError);
    assert.equal(result.error.message, 'reviews.csv:1: no "Content" column (matched exactly); the header has "content", "source"');
    assert.equal(result.error.hint, 'rename the column "content" to "Content": the name must match exactly, case included');
  });

  it('refuses a header naming Content twice: the second column would never be reviewed', async () => {
    const result = await check('Content,source,Content\nhello,app,click here\n');
    assert.ok(result.error instanceof InputError);
    assert.equal(result.error.message, 'reviews.csv:1: the header names "Content" twice (columns 1 and 3), expected one column holding the text or URL to review');
  });

  it('refuses an empty file and a file with a header only', async () => {
    assert.match((await check('')).error!.message, /^reviews\.csv: is empty, expected a header row with a Content column/);
    assert.match((await check('Content\n')).error!.message, /^reviews\.csv: has a header but no rows/);
  });
});

describe('closestName', () => {
  it('prefers a match but for case and spaces, then a small edit distance, else none', () => {
    assert.equal(closestName('Content', ['id', ' CONTENT ']), ' CONTENT ');
    assert.equal(closestName('Content', ['Contnet', 'Contents', 'x']), 'Contents');
    assert.equal(closestName('Content', ['text', 'body']), undefined);
  });
});
