import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES, outcome, runCsafe, spawnCsafe, tempDir, useEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

const RECORDS = join(EXAMPLES, 'records.jsonl');

// The first import runs the real bin/csafe, as does Ctrl-C; the other runs are main() in this
// process, against the same emulator process.

/** An import made straight against the emulator, as another client would; `file` is then PUT to its upload address as is. */
async function rawImport(emulator: EmulatorProcess, file?: string): Promise<string> {
  const created = (await emulator.control('/v1/import', { method: 'POST' })) as { import_id: string; upload_url: string };
  if (file !== undefined) {
    const put = await fetch(created.upload_url, { method: 'PUT', headers: { 'content-type': 'application/jsonl' }, body: file });
    assert.equal(put.status, 200, await put.text());
  }
  return created.import_id;
}

const requestsTo = async (emulator: EmulatorProcess, pattern: RegExp) =>
  (await emulator.requests()).filter((r) => pattern.test(String(r.path))).map((r) => `${String(r.method)} ${String(r.status)}`);

describe('csafe import (older imports) against the emulator', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '200ms']);

  it('import create records.jsonl --wait: mixed kinds uploaded, COMPLETE, exit 0', async () => {
    const { code, stdout, stderr } = await runCsafe(['import', 'create', RECORDS, '--wait', '--json'], { env: emulator.env });
    assert.equal(code, 0, stderr);
    const record = JSON.parse(stdout) as Record<string, unknown>;
    assert.equal(record.import_status, 'COMPLETE');
    assert.equal(typeof record.created_at, 'string');
    assert.match(stderr, new RegExp(`uploaded .* to import ${String(record.import_id)}`));
  });

  it('import create - reads stdin; import get ID --wait --timeout 10m follows it to COMPLETE', async () => {
    const created = await runInProcess(['import', 'create', '-', '--json'], { env: emulator.env, input: readFileSync(RECORDS) });
    assert.equal(created.code, 0, created.stderr);
    const { import_id: id, status } = JSON.parse(created.stdout) as { import_id: string; status: string };
    assert.equal(status, 'uploaded');
    const { code, stdout, stderr } = await runInProcess(['import', 'get', id, '--wait', '--timeout', '10m'], { env: emulator.env });
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout).import_status, 'COMPLETE');
    const table = await runInProcess(['import', 'get', id, '-o', 'table'], { env: emulator.env });
    assert.match(table.stdout, /^import_status: +COMPLETE$/m);
  });

  it('import get --wait on an import whose file the service cannot process: FAILED, exit 1', async () => {
    const id = await rawImport(emulator, '{"type":"text","data":{"text":"fine"}}\n{"type":"text"}\n');
    const { code, stdout, stderr } = await runInProcess(['import', 'get', id, '--wait', '--json'], { env: emulator.env });
    assert.equal(code, 1, stderr);
    assert.equal(JSON.parse(stdout).import_status, 'FAILED');
    assert.match(stderr, new RegExp(`import ${id} FAILED: .*line 2`));
  });

  it('import create with invalid lines: each named by file:line, exit 2, nothing sent', async () => {
    const dir = tempDir();
    const file = join(dir, 'records.jsonl');
    writeFileSync(file, ['{"type":"text","data":{"text":"ok"}}', '{"type":"text","data":[1]}', '{"kind":"text","data":{}}', '{"type":"text","data":{}}', '{oops'].join('\n') + '\n');
    await emulator.control('/_emulator/requests', { method: 'DELETE' });
    const { code, stdout, stderr } = await runInProcess(['import', 'create', file, '--wait'], { env: emulator.env });
    assert.equal(code, 2, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, new RegExp(`^${file}:2: data: expected a JSON object`, 'm'));
    assert.match(stderr, new RegExp(`^${file}:3: `, 'm'));
    assert.match(stderr, new RegExp(`^${file}:5: `, 'm'));
    assert.doesNotMatch(stderr, new RegExp(`${file}:[14]:`));
    assert.match(stderr, /3 invalid lines; nothing was sent/);
    assert.deepEqual(await emulator.requests(), []);
  });

  it('an upload address that has expired (quirk expired_upload_urls) is replaced by a new import, the old id on stderr', async () => {
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { expired_upload_urls: 1 } });
    await emulator.control('/_emulator/requests', { method: 'DELETE' });
    const { code, stdout, stderr } = await runInProcess(['import', 'create', RECORDS, '--wait', '--json'], { env: emulator.env });
    assert.equal(code, 0, stderr);
    const record = JSON.parse(stdout) as { import_id: string; import_status: string };
    assert.equal(record.import_status, 'COMPLETE');
    const expired = /the upload address of (\S+) expired during the upload; requesting another/.exec(stderr);
    assert.ok(expired, stderr);
    assert.notEqual(expired[1], record.import_id);
    assert.deepEqual(await requestsTo(emulator, /^\/v1\/import$/), ['POST 200', 'POST 200']);
    assert.deepEqual(await requestsTo(emulator, /^\/_storage\//), ['PUT 403', 'PUT 200']);
  });

  it('import get --wait --timeout: exit 124, naming the pending import and the command that checks again', async () => {
    const id = await rawImport(emulator);
    const { code, stdout, stderr } = await runInProcess(['import', 'get', id, '--wait', '--timeout', '1s'], { env: emulator.env });
    assert.equal(code, 124, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, new RegExp(`import ${id} is still pending; check on it with:\\n {2}csafe import get ${id} --wait\\n`));
  });

  it('Ctrl-C during import get --wait: exit 130, naming the pending import', async (t) => {
    const id = await rawImport(emulator);
    await emulator.control('/_emulator/requests', { method: 'DELETE' });
    const child = spawnCsafe(['import', 'get', id, '--wait'], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const ended = outcome(child);
    await waitFor(async () => (await requestsTo(emulator, new RegExp(`^/v1/import/${id}$`))).length > 0, { what: 'the first poll of the import' });
    child.kill('SIGINT');
    const { code, stderr } = await ended;
    assert.equal(code, 130, stderr);
    assert.match(stderr, new RegExp(`import ${id} is still pending; check on it with:\\n {2}csafe import get ${id} --wait\\n`));
  });
});
