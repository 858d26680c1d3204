import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { Chalk } from 'chalk';
import { createIOStreams } from '../../../src/core/terminal/io.js';
import { fitList, jsonValuesChunks, largeItemText, printResult, resultWriter, recordView, renderRecord, renderTable, resolveOutputFormat, tableView, type Column } from '../../../src/core/terminal/output.js';
import { sayLastWords } from '../../../src/core/signals.js';
import { bySeverity } from '../../../src/schemas/content.js';
import { bufferIO } from '../../helpers/io.js';

interface Row {
  id: string;
  status: string;
  url: string;
}

const COLUMNS: Column<Row>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'STATUS', value: (r) => r.status, style: (_r, text, color) => color.red(text) },
  { header: 'URL', value: (r) => r.url },
];

/** A table whose last column is prose: the one to cut. */
const PROSE_COLUMNS: Column<Row>[] = [COLUMNS[0]!, COLUMNS[2]!, COLUMNS[1]!];

const ROWS: Row[] = [
  { id: 'obj_1', status: 'succeeded', url: 'https://cdn.example.com/listings/2026/11/photos/very-long-file-name-0001.jpg' },
  { id: 'obj_2', status: 'failed', url: 'https://cdn.example.com/a.jpg' },
];

/** IOStreams over a buffer: a terminal of `columns` (undefined: width unknown), with the env given. */
function terminal(options: { tty?: boolean; columns?: number; env?: NodeJS.ProcessEnv; wide?: boolean } = {}) {
  const stdout = Object.assign(new PassThrough(), { isTTY: options.tty ?? true, columns: options.columns });
  const stderr = Object.assign(new PassThrough(), { isTTY: options.tty ?? true });
  let text = '';
  stdout.on('data', (chunk) => (text += chunk));
  // Colour off unless a test turns it on: the assertions compare plain text.
  const io = createIOStreams({ stdin: new PassThrough(), stdout, stderr, env: options.env ?? { NO_COLOR: '1' }, wide: options.wide, Chalk });
  return { io, stdout: () => text };
}

const widest = (text: string) => Math.max(...text.trimEnd().split('\n').map((line) => [...line].length));

describe('renderTable', () => {
  it('has no borders: a header row, then one aligned line per row, columns two spaces apart', () => {
    const { io } = terminal({ columns: 200 });
    assert.equal(renderTable(ROWS, COLUMNS, io), [
      'ID     STATUS     URL',
      'obj_1  succeeded  https://cdn.example.com/listings/2026/11/photos/very-long-file-name-0001.jpg',
      'obj_2  failed     https://cdn.example.com/a.jpg',
      '',
    ].join('\n'));
  });

  for (const columns of [100, 120]) {
    it(`truncates the longest cells of prose with … to fit ${columns} columns, never an id or a URL`, () => {
      const long = ROWS.map((row) => ({ ...row, status: `${row.status} ${'because of a long reason '.repeat(6)}` }));
      const text = renderTable(long, PROSE_COLUMNS, terminal({ columns }).io);
      assert.equal(widest(text), columns, text);
      assert.ok(text.includes(ROWS[0]!.url), text);
      assert.match(text, /^obj_1  https:\/\/cdn\S+  succeeded beca.*…$/m);
      assert.match(text, /^ID {5}URL {2,}STATUS$/m, 'short columns are not truncated');
    });
  }

  it('keeps a column of ids, tokens or URLs whole; when the table cannot fit so, one key: value block per row, each copyable value whole', () => {
    const token = `eyJ${'a'.repeat(300)}.eyJ${'b'.repeat(200)}.${'c'.repeat(43)}`;
    const rows = [{ id: 'obj_1', status: 'ok', url: token }];
    for (const columns of [40, 80, 120]) {
      const text = renderTable(rows, COLUMNS, terminal({ columns }).io);
      assert.ok(text.includes(`url:    ${token}\n`), text);
      assert.doesNotMatch(text, /…/);
    }
    const fits = renderTable(ROWS, COLUMNS, terminal({ columns: 120 }).io);
    assert.match(fits, /^ID {5}STATUS {5}URL\n/, 'a table when the whole values fit');
  });

  it('falls back to one key: value block per row below a usable width, prose cut within it', () => {
    const rows = ROWS.map((row) => ({ ...row, status: 'failed: the image could not be fetched' }));
    const text = renderTable(rows, COLUMNS, terminal({ columns: 24 }).io);
    assert.equal(text.split('\n\n').length, 2, text);
    assert.match(text, /^id: {5}obj_1\nstatus: failed: the ima…\nurl: {4}https:\/\/cdn\.example\.com\/listings\/2026\/11\/photos\/very-long-file-name-0001\.jpg\n\nid: {5}obj_2\n/);
    for (const line of text.trimEnd().split('\n').filter((line) => !line.startsWith('url:'))) assert.ok([...line].length <= 24, line);
  });

  it('shows every cell whole with --wide, at any width', () => {
    for (const columns of [40, 80]) {
      const text = renderTable(ROWS, COLUMNS, terminal({ columns, wide: true }).io);
      assert.ok(text.includes(ROWS[0]!.url), text);
      assert.doesNotMatch(text, /…/);
    }
  });

  it('does not truncate when the width is unknown (a pipe), and COLUMNS sets it', () => {
    assert.ok(renderTable(ROWS, COLUMNS, terminal({ tty: false }).io).includes(ROWS[0]!.url));
    const prose = ROWS.map((row) => ({ ...row, status: 'a reason given in many words '.repeat(4) }));
    const fromEnv = renderTable(prose, PROSE_COLUMNS, terminal({ tty: false, env: { COLUMNS: '100' } }).io);
    assert.ok(widest(fromEnv) <= 100 && fromEnv.includes('…'), fromEnv);
    assert.equal(terminal({ columns: 100, env: { COLUMNS: '70' } }).io.stdoutColumns, 70, 'COLUMNS overrides the stream');
  });

  it('measures wide characters by their display width', () => {
    const rows = [{ id: '日本語のテキストです', status: 'ok', url: '絵文字 '.repeat(20) }];
    const text = renderTable(rows, COLUMNS, terminal({ columns: 50 }).io);
    const lines = text.trimEnd().split('\n');
    assert.match(lines[1]!, /^日本語のテキストです {2}ok {6}絵文字[絵文字 ]*…$/, text);
    const displayWidth = (line: string) => [...line].reduce((n, ch) => n + (/[\u3000-\u9fff]/.test(ch) ? 2 : 1), 0);
    assert.ok(displayWidth(lines[1]!) <= 50, text);
  });

  it('sanitises cells: control characters shown, tabs and newlines made spaces', () => {
    const rows = [{ id: 'a\tb', status: '\u001b[31mred', url: 'line one\nline two' }];
    const text = renderTable(rows, COLUMNS, terminal({ columns: 120 }).io);
    assert.ok(text.includes('a b  ^[[31mred  line one line two'), text);
  });

  it('is bold and coloured only when colour is allowed: never with NO_COLOR or in a pipe', () => {
    assert.match(renderTable(ROWS, COLUMNS, terminal({ columns: 120, env: { FORCE_COLOR: '1' } }).io), /\u001b\[1mID/);
    for (const io of [terminal({ columns: 120, env: { NO_COLOR: '1' } }).io, terminal({ tty: false }).io]) {
      assert.doesNotMatch(renderTable(ROWS, COLUMNS, io), /\u001b/);
    }
  });
});

describe('the columns and cells a table shows', () => {
  interface Label { name: string; kind: string; note: string }
  const LABELS: Column<Label>[] = [
    { header: 'LABEL', value: (r) => r.name },
    { header: 'TYPE', value: (r) => r.kind, hideWhenSame: true },
    { header: 'NOTE', value: (r) => r.note },
  ];

  it('leaves out a column empty in every row, and one marked hideWhenSame alike in every row of several; TSV keeps both', () => {
    const rows = [{ name: 'violence', kind: 'category', note: '' }, { name: 'spam', kind: 'category', note: '' }];
    assert.equal(renderTable(rows, LABELS, terminal({ columns: 80 }).io), 'LABEL\nviolence\nspam\n');
    assert.equal(renderTable(rows.slice(0, 1), LABELS, terminal({ columns: 80 }).io), 'LABEL     TYPE\nviolence  category\n', 'one row: its type is news');
    assert.equal(tableView(rows, LABELS).tsv(), 'LABEL\tTYPE\tNOTE\nviolence\tcategory\t\nspam\tcategory\t\n');
  });

  it('fits a list to its column: what fits, then +N more, never a cut word', () => {
    const items = ['violence:match', 'hate:match', 'spam:review', 'self_harm:not_match'];
    assert.equal(fitList(items, 80), items.join(', '));
    assert.equal(fitList(items, 40), 'violence:match, hate:match +2 more');
    assert.equal(fitList(items, 20), 'violence:match +3 more');
    const rows = [{ id: 'obj_1', labels: items }];
    const columns: Column<(typeof rows)[number]>[] = [{ header: 'ID', value: (r) => r.id }, { header: 'LABELS', value: (r) => r.labels.join(', '), fit: (r, width) => fitList(r.labels, width) }];
    assert.match(renderTable(rows, columns, terminal({ columns: 45 }).io), /^obj_1  violence:match, hate:match \+2 more$/m);
  });

  it('orders labels match first, then review, then the rest, each kept in the order given', () => {
    const decisions = ['not_match', 'review', 'match', 'escalated', 'match', 'review'];
    assert.deepEqual(bySeverity(decisions.map((decision, i) => ({ decision, i })), (l) => l.decision).map((l) => `${l.decision}${l.i}`), ['match2', 'match4', 'review1', 'review5', 'not_match0', 'escalated3']);
  });
});

describe('renderRecord', () => {
  it('is an aligned key: value view, prose cut to the width unless --wide, ids, tokens and URLs whole', () => {
    const record = { request_id: 'req_1', status: 'succeeded', data_url: 'https://store.example/' + 'x'.repeat(100), error: 'the import failed '.repeat(8).trim(), data_count: 3 };
    const text = renderRecord(record, terminal({ columns: 60 }).io);
    assert.match(text, /^request_id: req_1\nstatus: {5}succeeded\ndata_url: {3}https:\/\/store\.example\/x{100}\nerror: {6}the import failed .*…\ndata_count: 3\n$/);
    for (const line of text.trimEnd().split('\n').filter((line) => !line.startsWith('data_url:'))) assert.ok([...line].length <= 60, line);
    assert.ok(renderRecord(record, terminal({ columns: 60, wide: true }).io).includes(record.error));
  });
});

describe('recordView', () => {
  it('draws a record for people as renderRecord does, and gives TSV its fields as the header', () => {
    const record = { request_id: 'req_1', status: 'succeeded' };
    const io = terminal({ columns: 80 }).io;
    assert.equal(recordView(record).table(io), renderRecord(record, io));
    assert.equal(recordView(record).table(io), 'request_id: req_1\nstatus:     succeeded\n');
    assert.equal(recordView(record).tsv(), 'request_id\tstatus\nreq_1\tsucceeded\n');
  });
});

describe('a byte count in a key: value view', () => {
  it('reads as a size on a terminal, the number kept in TSV', () => {
    const record = { request_id: 'req_1', bytes: 1_048_576_000, bytes_per_second: 129_400_000, upload_retries: 0 };
    const text = renderRecord(record, terminal({ columns: 80 }).io);
    assert.match(text, /^bytes: +1\.0 GB \(1048576000 bytes\)$/m);
    assert.match(text, /^bytes_per_second: +\d+(\.\d)? MB\/s$/m);
    assert.match(text, /^upload_retries: +0$/m);
    assert.equal(recordView(record).tsv().split('\n')[1], 'req_1\t1048576000\t129400000\t0');
  });
});

describe('a field in a key: value view', () => {
  it('shows null as nothing, a value that is not text as JSON, and a size only for a number in a byte field', () => {
    const record = { id: 'obj_1', finished_at: null, labels: ['a', 'b'], total_bytes: 2_000_000, bytes_total: 7, rate_bytes_per_second: 1_500_000, bytes_per_second_note: 3, bytes: '12', ok: true };
    assert.equal(
      renderRecord(record, terminal({ columns: 200 }).io),
      [
        'id:                    obj_1',
        'finished_at:',
        'labels:                ["a","b"]',
        'total_bytes:           2.0 MB (2000000 bytes)',
        'bytes_total:           7',
        'rate_bytes_per_second: 1.5 MB/s',
        'bytes_per_second_note: 3',
        'bytes:                 12',
        'ok:                    true',
        '',
      ].join('\n'),
    );
  });

  it('keeps prose that fits the width exactly, cuts the first past it, and never cuts a token', () => {
    const text = (value: string, columns = 26) => renderRecord({ note: value }, terminal({ columns }).io);
    assert.equal(text('aaa bbb ccc ddd eeee'), 'note: aaa bbb ccc ddd eeee\n');
    assert.equal(text('aaa bbb ccc ddd eeeee'), 'note: aaa bbb ccc ddd eee…\n');
    assert.equal(text('x'.repeat(30)), `note: ${'x'.repeat(30)}\n`, 'an id or token whole');
    assert.equal(renderRecord({ a: 'a b '.repeat(10) }, terminal({ columns: 3 }).io), 'a: …\n', 'no less than one column for the value');
  });
});

describe('column widths on a narrow terminal', () => {
  it('narrows the widest columns alike and gives what is left over to them one column each, from the left', () => {
    const prose = 'word '.repeat(6).trim();
    const columns: Column<{ a: string; b: string }>[] = [{ header: 'A', value: (r) => r.a }, { header: 'B', value: (r) => r.b }];
    const text = renderTable([{ a: prose, b: prose }], columns, terminal({ columns: 43 }).io);
    const [header, row] = text.trimEnd().split('\n');
    assert.equal(header, `A${' '.repeat(20)}  B`, 'the first column 21 wide, the second 20');
    assert.equal(row, `${prose.slice(0, 20)}…  ${prose.slice(0, 19)}…`);
    assert.equal([...row!].length, 43);
  });
});

describe('fitList at its edges', () => {
  it('keeps a list exactly as wide as the column, and cuts the first item when not even it fits beside the count', () => {
    assert.equal(fitList(['abc', 'def'], 8), 'abc, def');
    assert.equal(fitList(['abc', 'def'], 7), 'abc +1 more');
    assert.equal(fitList(['a-long-label', 'b'], 4), 'a-long-label +1 more');
  });
});

describe('printResult', () => {
  it('writes TSV only when asked: a header line, then tab-separated cells with tabs and newlines replaced', async () => {
    const { io, stdout } = terminal({ tty: false });
    await printResult(io, 'tsv', ROWS, tableView([{ ...ROWS[0]!, status: 'two\twords\nand a line' }], COLUMNS));
    assert.equal(stdout(), `ID\tSTATUS\tURL\nobj_1\ttwo words and a line\t${ROWS[0]!.url}\n`);
  });

  it('gives a record as TSV with its fields as the header', async () => {
    const { io, stdout } = terminal({ tty: false });
    await printResult(io, 'tsv', {}, recordView({ id: 'x', count: 2, nested: { a: 1 } }));
    assert.equal(stdout(), 'id\tcount\tnested\nx\t2\t{"a":1}\n');
  });

  it('writes an array as one NDJSON line an item, a single value as one line, and JSON pretty-printed whole', async () => {
    const ndjson = terminal({ tty: false });
    await printResult(ndjson.io, 'ndjson', [{ id: 'a' }, { id: 'b' }], tableView([], COLUMNS));
    await printResult(ndjson.io, 'ndjson', { id: 'c', nested: { list: [1] } }, recordView({}));
    await printResult(ndjson.io, 'ndjson', [], tableView([], COLUMNS));
    assert.equal(ndjson.stdout(), '{"id":"a"}\n{"id":"b"}\n{"id":"c","nested":{"list":[1]}}\n');
    const json = terminal({ tty: false });
    await printResult(json.io, 'json', [{ id: 'a' }], tableView([], COLUMNS));
    assert.equal(json.stdout(), '[\n  {\n    "id": "a"\n  }\n]\n');
  });

  it('draws an aligned table, not TSV, with -o table in a pipe', async () => {
    const { io, stdout } = terminal({ tty: false });
    await printResult(io, 'table', ROWS, tableView(ROWS, COLUMNS));
    assert.match(stdout(), /^ID {5}STATUS {5}URL\n/);
    assert.doesNotMatch(stdout(), /\t/);
  });
});

describe('resolveOutputFormat', () => {
  it('is a table on a terminal; in a pipe JSON for a single result, NDJSON for a stream', () => {
    assert.equal(resolveOutputFormat({}, true, 'single'), 'table');
    assert.equal(resolveOutputFormat({}, true, 'stream'), 'table');
    assert.equal(resolveOutputFormat({}, false, 'single'), 'json');
    assert.equal(resolveOutputFormat({}, false, 'stream'), 'ndjson');
    assert.equal(resolveOutputFormat({ output: 'tsv' }, false, 'single'), 'tsv');
    assert.equal(resolveOutputFormat({ output: 'table' }, false, 'stream'), 'table');
    assert.equal(resolveOutputFormat({ output: 'json', json: true }, false, 'stream'), 'json');
    assert.throws(() => resolveOutputFormat({ output: 'tsv', json: true }, false, 'stream'), /^UsageError: --json and --output tsv conflict/);
  });
});

describe('JSON written a value at a time', () => {
  it('is exactly JSON.stringify of the whole, and stays one document when the values stop with an error', async () => {
    async function* values(count: number, failAfter?: number) {
      for (let i = 0; i < count; i++) {
        if (i === failAfter) throw new Error('the download broke off');
        yield { id: i, nested: { list: [i] } };
      }
    }
    const collect = async (source: AsyncIterable<string>) => {
      let text = '';
      try {
        for await (const chunk of source) text += chunk;
      } catch (error) {
        return { text, error };
      }
      return { text, error: undefined };
    };
    for (const count of [0, 1, 3]) {
      const whole = Array.from({ length: count }, (_, i) => ({ id: i, nested: { list: [i] } }));
      assert.equal((await collect(jsonValuesChunks(values(count), 'json'))).text, JSON.stringify(whole, null, 2) + '\n');
      assert.equal((await collect(jsonValuesChunks(values(count), 'ndjson'))).text, whole.map((v) => JSON.stringify(v) + '\n').join(''));
    }
    const stopped = await collect(jsonValuesChunks(values(5, 2), 'json'));
    assert.match(String(stopped.error), /broke off/);
    assert.deepEqual(JSON.parse(stopped.text), [{ id: 0, nested: { list: [0] } }, { id: 1, nested: { list: [1] } }]);
  });
});

describe('JSON written in chunks', () => {
  it('hands the text on in chunks of at least 64 KiB but the last, which together are the whole', async () => {
    async function* values() {
      for (let i = 0; i < 3000; i++) yield { id: `object-${i}`, text: 'x'.repeat(20) };
    }
    for (const format of ['json', 'ndjson'] as const) {
      const chunks: string[] = [];
      for await (const chunk of jsonValuesChunks(values(), format)) chunks.push(chunk);
      assert.ok(chunks.length > 1, `${format}: ${chunks.length} chunk`);
      assert.ok(chunks.slice(0, -1).every((chunk) => chunk.length >= 65536 && chunk.length < 65536 + 200), `${format}: ${chunks.map((chunk) => chunk.length)}`);
      const all: unknown[] = [];
      for await (const value of values()) all.push(value);
      assert.equal(chunks.join(''), format === 'json' ? `${JSON.stringify(all, null, 2)}\n` : all.map((value) => `${JSON.stringify(value)}\n`).join(''));
    }
  });
});

describe('a large item (a record over 5 MiB) printed as its values come', () => {
  async function* values(count: number, failAfter?: number) {
    for (let i = 0; i < count; i++) {
      if (i === failAfter) throw new Error('the download broke off');
      yield { id: `o${i}`, n: i };
    }
  }
  const text = async (chunks: AsyncIterable<string>) => {
    let out = '';
    try {
      for await (const chunk of chunks) out += chunk;
    } catch {
      // What was written before the values stopped is what is checked.
    }
    return out;
  };
  const head = { namespace: 'ns', request_id: 'req_1', status: 'succeeded' };

  it('is exactly the whole record as JSON.stringify writes it, and stays one document when the values stop', async () => {
    for (const count of [0, 2]) {
      const whole = { ...head, data: Array.from({ length: count }, (_, i) => ({ id: `o${i}`, n: i })) };
      assert.equal(await text(largeItemText({ head, field: 'data', values: values(count) }, 'json')), JSON.stringify(whole, null, 2));
      assert.equal(await text(largeItemText({ head, field: 'data', values: values(count) }, 'ndjson')), JSON.stringify(whole) + '\n');
    }
    const stopped = await text(largeItemText({ head, field: 'data', values: values(5, 2) }, 'json'));
    assert.deepEqual(JSON.parse(stopped).data.map((entry: { id: string }) => entry.id), ['o0', 'o1']);
    assert.deepEqual(JSON.parse(await text(largeItemText({ head, field: 'data', values: values(5, 2) }, 'ndjson'))).data.length, 2);
  });

  it('keeps its rows in the order printed in a table, among the rows of small items', async () => {
    const { io, stdout } = bufferIO();
    const view = {
      rows: (item: { data: Array<{ id: string }> }) => item.data,
      columns: [{ header: 'ID', value: (row: { id: string }) => row.id }],
      largeRow: (_head: Record<string, unknown>, value: unknown) => value as { id: string },
    };
    const writer = resultWriter(io, 'table', view);
    await writer.print({ data: [{ id: 'first' }] });
    await writer.printLarge({ head, field: 'data', values: values(2) });
    await writer.print({ data: [{ id: 'last' }] });
    await writer.end();
    assert.deepEqual(stdout().trim().split('\n').map((line) => line.trim()), ['ID', 'first', 'o0', 'o1', 'last']);
  });
  it('is printed in every streamed format, and on a terminal with a spinner, exactly as the whole would be among small items', async () => {
    const small = (id: string) => ({ ...head, data: [{ id, n: -1 }] });
    const whole = { ...head, data: [{ id: 'o0', n: 0 }, { id: 'o1', n: 1 }] };
    const items = [small('first'), whole, small('last')];
    const view = {
      rows: (item: typeof whole) => item.data,
      columns: [{ header: 'ID', value: (row: { id: string; n: number }) => row.id }, { header: 'N', value: (row: { id: string; n: number }) => String(row.n) }],
      largeRow: (_head: Record<string, unknown>, value: unknown) => value as { id: string; n: number },
    };
    const printed = async (format: 'json' | 'ndjson' | 'tsv', options: { tty?: boolean } = {}) => {
      const { io, stdout } = bufferIO({ ...options, env: { TERM: 'xterm-256color' } });
      const writer = resultWriter(io, format, view);
      await writer.print(items[0]!);
      await writer.printLarge({ head, field: 'data', values: values(2) });
      await writer.print(items[2]!);
      const beforeEnd = stdout();
      await writer.end();
      return { beforeEnd, text: stdout() };
    };
    const streamed = await printed('json');
    assert.equal(streamed.text, `${JSON.stringify(items, null, 2)}\n`);
    assert.ok(streamed.beforeEnd.startsWith('[\n  {'), 'written as the items came');
    assert.equal((await printed('ndjson')).text, items.map((item) => `${JSON.stringify(item)}\n`).join(''));
    assert.equal((await printed('tsv')).text, 'ID\tN\nfirst\t-1\no0\t0\no1\t1\nlast\t-1\n');
    const held = await printed('json', { tty: true });
    assert.deepEqual(held, { beforeEnd: '', text: `${JSON.stringify(items, null, 2)}\n` }, 'under a spinner: kept whole and printed at the end');
  });

  it('--json: a run that leaves at once (a second Ctrl-C) leaves the array closed, one JSON document; once ended, nothing more', async () => {
    const view = { rows: () => [], columns: [{ header: 'ID', value: (row: { id: string }) => row.id }] };
    const { io, stdout } = bufferIO();
    const writer = resultWriter(io, 'json', view);
    await writer.print({ id: 'first' });
    await writer.print({ id: 'second' });
    sayLastWords();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(JSON.parse(stdout()), [{ id: 'first' }, { id: 'second' }]);
    const ended = bufferIO();
    const done = resultWriter(ended.io, 'json', view);
    await done.print({ id: 'only' });
    await done.end();
    sayLastWords();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(ended.stdout(), `${JSON.stringify([{ id: 'only' }], null, 2)}\n`);
  });

  it('starts a TSV with its header when it is the first item printed, and a TSV of nothing is its header', async () => {
    const view = { rows: () => [], columns: [{ header: 'ID', value: (row: { id: string }) => row.id }], largeRow: (_head: Record<string, unknown>, value: unknown) => value as { id: string } };
    const first = bufferIO();
    const writer = resultWriter(first.io, 'tsv', view);
    await writer.printLarge({ head, field: 'data', values: values(1) });
    await writer.end();
    assert.equal(first.stdout(), 'ID\no0\n');
    const none = bufferIO();
    await resultWriter(none.io, 'tsv', view).end();
    assert.equal(none.stdout(), 'ID\n');
  });
});


describe('resolveOutputFormat with --json alone', () => {
  it('is JSON on a terminal and in a pipe, whatever the shape', () => {
    for (const tty of [true, false]) for (const shape of ['single', 'stream'] as const) assert.equal(resolveOutputFormat({ json: true }, tty, shape), 'json');
  });
});

describe('the cells and columns of a table, at their edges', () => {
  interface Pair { a: string; b: string }
  const PAIR: Column<Pair>[] = [{ header: 'A', value: (r) => r.a }, { header: 'B', value: (r) => r.b, hideWhenSame: true }];
  const lines = (text: string) => text.trimEnd().split('\n').map((line) => line.trimEnd());

  it('keeps a column empty in some rows only, one marked hideWhenSame whose rows differ, and every column when all are empty', () => {
    assert.deepEqual(lines(renderTable([{ a: 'x', b: 'one' }, { a: '', b: 'two' }], PAIR, terminal({ columns: 80 }).io)), ['A  B', 'x  one', '   two']);
    assert.deepEqual(lines(renderTable([{ a: '', b: '' }, { a: '', b: '' }], PAIR, terminal({ columns: 80 }).io)), ['A  B']);
  });

  it('redacts the signature of a URL with a query, http or https, and leaves prose that mentions one as it is', () => {
    const url = 'http://bucket.example/path/obj.jsonl?X-Amz-Signature=abcdef&part=2';
    const cells = [url, url.replace('http:', 'HTTPS:'), `see ${url}`, `${url} and more`];
    const text = renderTable(cells.map((a) => ({ a, b: 'b' })), PAIR.slice(0, 1), terminal({ columns: 200 }).io);
    assert.deepEqual(lines(text).slice(1), [
      'http://bucket.example/path/obj.jsonl?X-Amz-Signature=[REDACTED]&part=2',
      'https://bucket.example/path/obj.jsonl?X-Amz-Signature=[REDACTED]&part=2',
      `see ${url}`,
      `${url} and more`,
    ]);
  });

  it('keeps prose whole when the width is unknown (a pipe)', () => {
    const prose = 'a reason given in many words '.repeat(4).trim();
    assert.equal(renderTable([{ a: 'x', b: prose }], PAIR, terminal({ tty: false }).io), `A  B\nx  ${prose}\n`);
  });

  it('is a table while every prose column can keep the floor of 8 (or its header), and key: value blocks one column narrower', () => {
    const prose = 'word '.repeat(6).trim();
    const atFloor = renderTable([{ a: prose, b: prose }], PAIR, terminal({ columns: 18 }).io);
    assert.deepEqual(lines(atFloor), ['A         B', `${prose.slice(0, 7)}…  ${prose.slice(0, 7)}…`]);
    assert.deepEqual(lines(renderTable([{ a: prose, b: prose }], PAIR, terminal({ columns: 17 }).io)), ['a: word word wor…', 'b: word word wor…']);
  });

  it('gives what is left over only to the columns that were narrowed, never past their widest cell', () => {
    const columns: Column<{ id: string; x: string; y: string }>[] = [{ header: 'ID', value: (r) => r.id }, { header: 'X', value: (r) => r.x }, { header: 'Y', value: (r) => r.y }];
    const prose = 'word '.repeat(8).trim();
    // 41 columns less two gaps of 2 leave 37: 2 for ID, 35 for two prose columns of 39, so 17 each and the one left over to the first.
    const text = renderTable([{ id: 'o1', x: prose, y: prose }], columns, terminal({ columns: 41 }).io);
    assert.deepEqual(lines(text), [`ID  X${' '.repeat(17)}  Y`, `o1  ${prose.slice(0, 17)}…  ${prose.slice(0, 16)}…`]);
  });
});

describe('a result writer at its edges', () => {
  interface Item { ids: string[] }
  const VIEW = { rows: (item: Item) => item.ids.map((id) => ({ id })), columns: [{ header: 'ID', value: (row: { id: string }) => row.id }], largeRow: (_head: Record<string, unknown>, value: unknown) => ({ id: String(value) }) };

  it('draws -o table in a pipe as an aligned table at the end, its rows sorted by the view\'s order, and nothing for no rows', async () => {
    const { io, stdout } = bufferIO();
    const writer = resultWriter(io, 'table', { ...VIEW, order: (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id) });
    await writer.print({ ids: ['obj_3', 'obj_1'] });
    await writer.print({ ids: ['obj_2'] });
    assert.equal(stdout(), '');
    await writer.end();
    assert.equal(stdout(), 'ID\nobj_1\nobj_2\nobj_3\n');
    const none = bufferIO();
    await resultWriter(none.io, 'table', VIEW).end();
    assert.equal(none.stdout(), '');
  });

  it('streams to a pipe while a spinner runs on the terminal of stderr', async () => {
    let text = '';
    const stdout = Object.assign(new PassThrough(), { isTTY: false });
    stdout.on('data', (chunk) => (text += chunk));
    const io = createIOStreams({ stdin: new PassThrough(), stdout, stderr: Object.assign(new PassThrough(), { isTTY: true }), env: { TERM: 'xterm-256color' }, Chalk });
    assert.ok(io.animate);
    const writer = resultWriter(io, 'ndjson', VIEW);
    await writer.print({ ids: ['obj_1'] });
    assert.equal(text, '{"ids":["obj_1"]}\n');
    await writer.end();
  });

  it('under a spinner, prints a TSV of small and large items in the order they came', async () => {
    const { io, stdout } = bufferIO({ tty: true, env: { TERM: 'xterm-256color' } });
    assert.ok(io.animate);
    const writer = resultWriter(io, 'tsv', VIEW);
    async function* large() {
      yield 'big_1';
      yield 'big_2';
    }
    await writer.print({ ids: ['obj_1'] });
    await writer.print({ ids: ['obj_2'] });
    await writer.printLarge({ head: {}, field: 'ids', values: large() });
    assert.equal(stdout(), '');
    await writer.end();
    assert.equal(stdout(), 'ID\nobj_1\nobj_2\nbig_1\nbig_2\n');
  });
});

describe('JSON text at its edges', () => {
  it('writes a large item with no other field as the whole would be, in both formats', async () => {
    async function* two() {
      yield 1;
      yield 2;
    }
    const all = async (chunks: AsyncIterable<string>) => {
      let text = '';
      for await (const chunk of chunks) text += chunk;
      return text;
    };
    assert.equal(await all(largeItemText({ head: {}, field: 'data', values: two() }, 'json')), JSON.stringify({ data: [1, 2] }, null, 2));
    assert.equal(await all(largeItemText({ head: {}, field: 'data', values: two() }, 'ndjson')), `${JSON.stringify({ data: [1, 2] })}\n`);
  });

  it('hands a chunk on as soon as it holds 64 KiB, and never an empty one', async () => {
    // Each value is an NDJSON line of exactly 32 KiB, its quotes and newline counted: two of them fill a chunk.
    async function* lines() {
      for (let i = 0; i < 3; i++) yield 'x'.repeat(32768 - 3);
    }
    const chunks: string[] = [];
    for await (const chunk of jsonValuesChunks(lines(), 'ndjson')) chunks.push(chunk);
    assert.deepEqual(chunks.map((chunk) => chunk.length), [65536, 32768]);
    async function* four() {
      for (let i = 0; i < 4; i++) yield 'x'.repeat(32768 - 3);
    }
    const even: string[] = [];
    for await (const chunk of jsonValuesChunks(four(), 'ndjson')) even.push(chunk);
    assert.deepEqual(even.map((chunk) => chunk.length), [65536, 65536]);
  });
});
