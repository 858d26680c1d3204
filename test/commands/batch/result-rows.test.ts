import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { resultRowsAsJson } from '../../../src/commands/batch/download/result-rows.js';
import { UnexpectedResponseError } from '../../../src/core/errors.js';

const lines = async (text: string) => {
  const out: string[] = [];
  for await (const line of resultRowsAsJson(Readable.from([Buffer.from(text)]), 'ndjson')) out.push(line);
  return out;
};

describe('resultRowsAsJson', () => {
  it('makes one object per row keyed by the header, quoted cells as they are', async () => {
    const csv = 'Content,Status,Service result,Expected result,Labels,source\r\n"a, ""b""\nc",SUCCESS,flagged,,"spam,scam",app\r\n';
    assert.deepEqual((await lines(csv)).map((line) => JSON.parse(line)), [
      { Content: 'a, "b"\nc', Status: 'SUCCESS', 'Service result': 'flagged', 'Expected result': '', Labels: 'spam,scam', source: 'app' },
    ]);
  });

  it('keeps a column named __proto__ (the caller\'s own metadata header) as a field like any other', async () => {
    const [line] = await lines('Content,Status,__proto__\nhi,SUCCESS,x\n');
    assert.equal(line!.trim(), '{"Content":"hi","Status":"SUCCESS","__proto__":"x"}');
  });

  it('keys a repeated header name by its column, so the caller\'s own Status column hides not the service\'s', async () => {
    const [line] = await lines('Content,Status,Service result,Expected result,Labels,Status,src,src\nhi,ERROR,x,,,approved,a,b\n');
    assert.deepEqual(JSON.parse(line!), {
      Content: 'hi', Status: 'ERROR', 'Service result': 'x', 'Expected result': '', Labels: '',
      'Status (column 6)': 'approved', src: 'a', 'src (column 8)': 'b',
    });
  });

  it('with --json writes one array, as JSON.stringify writes it whole, whatever the number of rows', async () => {
    for (const rows of [0, 1, 3]) {
      const csv = `Content,Status\n${Array.from({ length: rows }, (_, i) => `c${i},SUCCESS\n`).join('')}`;
      let text = '';
      for await (const chunk of resultRowsAsJson(Readable.from([Buffer.from(csv)]), 'json')) text += chunk;
      const expected = Array.from({ length: rows }, (_, i) => ({ Content: `c${i}`, Status: 'SUCCESS' }));
      assert.equal(text, JSON.stringify(expected, null, 2) + '\n', `${rows} rows`);
    }
  });

  it('reports a result CSV it cannot read as the service’s fault', async () => {
    await assert.rejects(lines('Content\n"open\n'), UnexpectedResponseError);
  });
});
