import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeFailure, formatLabels, objectLines, printRequestRecord, requestRecordsView, statusCounts } from '../../../src/commands/data/shared/render.js';
import { printResult, resultWriter, tableView, type OutputFormat } from '../../../src/core/terminal/output.js';
import { isImportRecord, requestRecordSchema, type RequestRecord } from '../../../src/schemas/data.js';
import { bufferIO } from '../../helpers/io.js';

const addRecord: RequestRecord = {
  namespace: 'listings',
  request_id: 'req_1',
  status: 'failed',
  data: [
    { id: 'a', output: { actions: [], fields: {}, labels: [{ label: 'violence', score: 0.9, decision: 'match' }, { label: 'spam' }] }, url: 'http://x/a' },
    { id: 'b', error: { message: 'photo: expected an http(s) URL' } },
  ],
};

const importRecord: RequestRecord = {
  request_id: 'req_2',
  namespace: 'listings',
  status: 'succeeded',
  priority: 'high',
  data_url: 'http://x/out.jsonl?sig=1',
  data_count: 3,
};

describe('data: rendering request records', () => {
  it('counts requests per status in the spec\'s order, then unknown statuses', () => {
    const records = ['succeeded', 'queued', 'paused', 'queued', 'ingesting'].map((status, i) => ({ request_id: `r${i}`, status }));
    assert.equal(statusCounts(records), '2 queued · 1 ingesting · 1 succeeded · 1 paused');
  });

  it('shows labels with their decisions, an unprocessable object as failed and a processed one as succeeded', () => {
    assert.equal(formatLabels(addRecord.data![0]!), 'violence:match, spam');
    assert.deepEqual(objectLines([addRecord]).map((o) => [o.request_id, o.id, o.status]), [['req_1', 'a', 'succeeded'], ['req_1', 'b', 'failed']]);
    assert.equal(objectLines([{ ...addRecord, status: 'succeeded', data: [addRecord.data![0]!] }])[0]!.status, 'succeeded');
  });

  it('says why a request failed', () => {
    assert.equal(describeFailure(addRecord), 'request req_1 failed: object "b": photo: expected an http(s) URL');
    assert.equal(describeFailure({ request_id: 'req_3', status: 'failed', error: { message: 'line 4: id: expected a string id' } }), 'request req_3 failed: line 4: id: expected a string id');
  });

  it('prints an add record as a table of its objects, every column named in data status --help (-o tsv: the same columns)', async () => {
    const { io, stdout, stderr } = bufferIO();
    await printRequestRecord(io, 'table', addRecord);
    assert.equal(stdout(), [
      'ID  STATUS     LABELS                URL         ERROR',
      'a   succeeded  violence:match, spam  http://x/a',
      'b   failed                                       photo: expected an http(s) URL',
      '',
    ].join('\n'));
    assert.match(stderr(), /request req_1: failed, 2 objects/);
    const tsv = bufferIO();
    await printRequestRecord(tsv.io, 'tsv', addRecord);
    assert.equal(tsv.stdout(), 'ID\tSTATUS\tLABELS\tURL\tERROR\na\tsucceeded\tviolence:match, spam\thttp://x/a\t\nb\tfailed\t\t\tphoto: expected an http(s) URL\n');
  });

  it('prints an import record as a summary with the spec\'s fields first and unknown ones kept, its signed link redacted', async () => {
    const { io, stdout } = bufferIO();
    await printRequestRecord(io, 'table', importRecord);
    const lines = ['request_id: req_2', 'namespace:  listings', 'status:     succeeded', 'data_count: 3', 'data_url:   http://x/out.jsonl?sig=[REDACTED]', 'priority:   high'];
    assert.equal(stdout(), lines.join('\n') + '\n');
  });

  it('prints an import record before its output exists, null or empty data_url alike, never as an add record', async () => {
    const pending = { request_id: 'req_4', namespace: 'listings', status: 'queued', data_count: 0, data_expires_at: null, data_url: null };
    for (const record of [pending, { ...pending, data_url: '', data_expires_at: '' }, { ...pending, data: [] }]) {
      const parsed = requestRecordSchema.parse(record);
      assert.ok(isImportRecord(parsed), JSON.stringify(record));
      const { io, stdout } = bufferIO();
      await printRequestRecord(io, 'table', parsed);
      const rows = stdout().replace(/\n$/, '').split('\n').slice(0, 6).map((line) => line.split(/: */));
      assert.deepEqual(rows, [['request_id', 'req_4'], ['namespace', 'listings'], ['status', 'queued'], ['data_count', '0'], ['data_url', ''], ['data_expires_at', '']]);
    }
    assert.ok(!isImportRecord(requestRecordSchema.parse({ request_id: 'req_5', status: 'queued', data: [] })));
  });

  it('reads an import record whose data_count is null until its output exists, as …/results/download-url answers it', async () => {
    const pending = requestRecordSchema.parse({ request_id: 'req_8', namespace: 'listings', status: 'ingesting', data_count: null, data_expires_at: null, data_url: null });
    assert.ok(isImportRecord(pending));
    const { io, stdout } = bufferIO();
    await printRequestRecord(io, 'table', pending);
    assert.deepEqual(stdout().replace(/\n$/, '').split('\n').map((line) => line.split(/: */)), [['request_id', 'req_8'], ['namespace', 'listings'], ['status', 'ingesting'], ['data_count', ''], ['data_url', ''], ['data_expires_at', '']]);
  });

  it('prints either record as returned in JSON', async () => {
    const { io, stdout } = bufferIO();
    await printRequestRecord(io, 'json', addRecord);
    assert.deepEqual(JSON.parse(stdout()), addRecord);
  });

  it('prints the records of data add --wait one at a time exactly as all at once, in every format, none to all of them', async () => {
    const records: RequestRecord[] = [addRecord, { request_id: 'req_6', status: 'succeeded', data: [] }, { ...addRecord, request_id: 'req_7', status: 'succeeded' }];
    for (const format of ['json', 'ndjson', 'tsv', 'table'] as OutputFormat[]) {
      for (let count = 0; count <= records.length; count++) {
        const some = records.slice(0, count);
        const tableRows = objectLines(some);
        // A terminal that also shows a spinner holds the output to the end; the bytes are the same.
        for (const tty of [false, true]) {
          const atOnce = bufferIO({ tty });
          if (format !== 'table' || tableRows.length > 0) await printResult(atOnce.io, format, some, tableView(tableRows, requestRecordsView.columns));
          const oneByOne = bufferIO({ tty });
          const writer = resultWriter(oneByOne.io, format, requestRecordsView);
          for (const record of some) await writer.print(record);
          await writer.end();
          assert.equal(oneByOne.stdout(), atOnce.stdout(), `${format}, ${count} records${tty ? ', on a terminal' : ''}`);
        }
      }
    }
  });

  it('prints the records of data add --wait as they end, a JSON array closed when the wait ends early, a table at the end', async () => {
    for (const format of ['json', 'ndjson', 'tsv', 'table'] as OutputFormat[]) {
      const { io, stdout } = bufferIO();
      const writer = resultWriter(io, format, requestRecordsView);
      await writer.print(addRecord);
      assert.equal(stdout() === '', format === 'table', `${format}: printed at once`);
      await writer.end();
      if (format === 'json') assert.deepEqual(JSON.parse(stdout()), [addRecord]);
      if (format === 'table') assert.match(stdout(), /violence:match/);
    }
  });
});
