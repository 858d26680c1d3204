import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// An add request whose output is over the 5 MiB a record answers inline: the service answers its
// record 413, and csafe reads it from …/results/download-url, object by object.

describe('an add request too large to come inline (413)', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const run = (args: string[]) => runInProcess(args, { env: emulator.env, cwd: dir });
  const COUNT = 640;
  let requestId: string;
  let waited: { code: number | null; stdout: string; stderr: string };

  before(async () => {
    emulator = await startEmulatorProcess(['--processing-delay', '0']);
    // 640 objects of 9,000 characters: one request of 5.8 MB, whose output (fields, labels, urls) passes 5 MiB.
    const lines = Array.from({ length: COUNT }, (_, i) => JSON.stringify({ id: `o${i}`, text: `${i % 7 === 0 ? 'I will kill you ' : ''}${'x'.repeat(9000)}` }));
    writeFileSync(join(dir, 'big.jsonl'), lines.join('\n') + '\n');
    waited = await run(['data', 'add', 'big', 'big.jsonl', '--max-batch-bytes', '5900000', '--batch-size', '1000', '--wait', '--json']);
    requestId = JSON.parse(waited.stdout)[0]?.request_id;
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('data add --wait follows the 413 to the download and prints the record as for a small one', async () => {
    assert.equal(waited.code, 0, waited.stderr);
    const records = JSON.parse(waited.stdout) as Array<{ request_id: string; status: string; data: Array<{ id: string; output: { labels: unknown[] } }> }>;
    assert.equal(records.length, 1);
    assert.equal(records[0]!.status, 'succeeded');
    assert.deepEqual(records[0]!.data.map((entry) => entry.id), Array.from({ length: COUNT }, (_, i) => `o${i}`));
    const log = (await emulator.requests()).map((entry) => `${entry.method} ${String(entry.path).replace(/req_\w+/, 'ID')} ${entry.status}`);
    assert.ok(log.includes('GET /v1/data/big/requests/ID 413'), log.join('\n'));
    assert.ok(log.includes('GET /v1/data/big/requests/ID/results/download-url 200'), log.join('\n'));
    assert.ok(log.some((line) => line.startsWith('GET /_storage/outputs/ID.jsonl 200')), log.join('\n'));
  });

  it('data status prints it in every format as a record that came inline: JSON, NDJSON, TSV rows and a table', async () => {
    const json = await run(['data', 'status', 'big', requestId, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const record = JSON.parse(json.stdout);
    assert.deepEqual([record.namespace, record.request_id, record.status, record.data.length], ['big', requestId, 'succeeded', COUNT]);
    assert.equal(json.stdout, JSON.stringify(record, null, 2) + '\n', 'as JSON.stringify writes the whole');
    const ndjson = await run(['data', 'status', 'big', requestId, '-o', 'ndjson']);
    assert.equal(ndjson.stdout, JSON.stringify(record) + '\n');
    const tsv = await run(['data', 'status', 'big', requestId, '-o', 'tsv']);
    const rows = tsv.stdout.trimEnd().split('\n');
    assert.equal(rows[0], 'ID\tSTATUS\tLABELS\tURL\tERROR');
    assert.equal(rows.length, COUNT + 1);
    assert.match(rows[1]!, /^o0\tsucceeded\tviolence:match/);
    const table = await run(['data', 'status', 'big', requestId, '-o', 'table']);
    assert.equal(table.code, 0, table.stderr);
    assert.equal(table.stdout.trimEnd().split('\n').length, COUNT + 1);
  });

  it('a service with only the spec\'s endpoints answers the record inline, and data status prints it', async () => {
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { spec_only: true } });
    try {
      const inline = await run(['data', 'status', 'big', requestId, '--json']);
      assert.equal(inline.code, 0, inline.stderr);
      assert.equal(JSON.parse(inline.stdout).data.length, COUNT);
    } finally {
      await emulator.control('/_emulator/quirks', { method: 'POST', body: { spec_only: false } });
    }
  });

  it('a large request that ended failed names its failed objects, found as they downloaded (exit 1)', async () => {
    const lines = Array.from({ length: COUNT }, (_, i) => JSON.stringify({ id: `f${i}`, photo: i === 5 ? 'not a url' : 'https://img.example/p.jpg', text: 'x'.repeat(9000) }));
    writeFileSync(join(dir, 'failing.jsonl'), lines.join('\n') + '\n');
    writeFileSync(join(dir, 'photo-schema.json'), '{"photo": {"content_type": "image_url"}}');
    const failed = await run(['data', 'add', 'bigfail', 'failing.jsonl', '--schema', 'photo-schema.json', '--max-batch-bytes', '5900000', '--batch-size', '1000', '--wait', '-o', 'ndjson']);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /request req_\w+ failed: object "f5": photo: expected an http\(s\) URL/);
    assert.equal(JSON.parse(failed.stdout).data.length, COUNT);
  });

  it('data download streams the output of an add request too, from …/results/download-url', async () => {
    const downloaded = await run(['data', 'download', 'big', requestId, '-o', 'ndjson']);
    assert.equal(downloaded.code, 0, downloaded.stderr);
    assert.equal(downloaded.stdout.trimEnd().split('\n').length, COUNT);
  });
});
