import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { FormulaCells } from '../../../src/commands/batch/download/formula-cells.js';

/** Quoted cells with commas, doubled quotes and line breaks, CRLF, a byte order mark, an empty quoted cell, non-ASCII text. */
const CSV = '\ufeff=head,b\r\n"=a, ""b""\r\nc",plain\r\n"",-1\r\n+1,"x=y"\n@é,"""=not"\n"-€",=\n';
const FORMULA_CELLS = 7;

async function passed(csv: Buffer, escape: boolean, chunkBytes: number) {
  const cells = new FormulaCells(escape);
  async function* chunks() {
    for (let at = 0; at < csv.length; at += chunkBytes) yield csv.subarray(at, at + chunkBytes);
  }
  const out: Uint8Array[] = [];
  for await (const chunk of cells.pass(chunks())) out.push(chunk);
  return { text: Buffer.concat(out).toString('utf8'), count: cells.count };
}

const cellsOf = (text: string) => (parse(text, { bom: true, record_delimiter: ['\r\n', '\n'] }) as string[][]).flat();

describe('FormulaCells', () => {
  it('counts the cells that start with =, +, - or @, quoted or not, and passes the CSV byte for byte', async () => {
    const { text, count } = await passed(Buffer.from(CSV), false, 64 * 1024);
    assert.equal(count, FORMULA_CELLS);
    assert.equal(text, CSV);
  });

  it("with escape, gives exactly those cells a leading ' (inside their quotes), the same however the stream is cut", async () => {
    const expected = cellsOf(CSV).map((cell) => (/^[=+\-@]/.test(cell) ? `'${cell}` : cell));
    for (let chunkBytes = 1; chunkBytes <= Buffer.byteLength(CSV); chunkBytes++) {
      const { text, count } = await passed(Buffer.from(CSV), true, chunkBytes);
      assert.equal(count, FORMULA_CELLS, `chunks of ${chunkBytes}`);
      assert.deepEqual(cellsOf(text), expected, `chunks of ${chunkBytes}`);
    }
  });
});
