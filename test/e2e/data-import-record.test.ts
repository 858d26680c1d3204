import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { runCsafe, startEmulatorProcess, tempDir, withEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';

/** The `key: value` lines of `-o table`, as a map. */
const fieldsOf = (stdout: string) => new Map(stdout.replace(/\n$/, '').split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));

describe('csafe data status on an import request in every state', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const run = (args: string[], on = emulator) => runCsafe(args, { env: on.env, cwd: dir });
  const requestImport = async (on = emulator) => {
    const response = await fetch(`${on.baseUrl}/v1/data/listings/import`, { method: 'POST', headers: { Authorization: `Bearer ${on.apiKey}` } });
    return (await response.json()) as { requestId: string; upload_url: string };
  };

  // Upload addresses that outlive any test here, however loaded the machine; the expiry test has its own emulator.
  before(async () => {
    emulator = await startEmulatorProcess(['--processing-delay', '0', '--upload-ttl', '1h']);
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('before its upload: the import summary, queued, data_count 0 and no data_url yet', async () => {
    const { requestId } = await requestImport();
    const table = await run(['data', 'status', 'listings', requestId, '-o', 'table']);
    assert.equal(table.code, 0, table.stderr);
    const fields = fieldsOf(table.stdout);
    assert.deepEqual([fields.get('status'), fields.get('data_count'), fields.get('data_url'), fields.get('data_expires_at')], ['queued', '0', '', '']);
    const json = await run(['data', 'status', 'listings', requestId, '--json']);
    assert.deepEqual(JSON.parse(json.stdout), { namespace: 'listings', request_id: requestId, status: 'queued', data_count: 0, data_url: null, data_expires_at: null });
  });

  it('--wait on an import whose upload never came: failed, with the reason, exit 1', async () => {
    await withEmulatorProcess(['--processing-delay', '0', '--upload-ttl', '2s'], async (expiring) => {
      const { requestId } = await requestImport(expiring);
      const waited = await run(['data', 'status', 'listings', requestId, '--wait', '-o', 'table'], expiring);
      assert.equal(waited.code, 1, waited.stderr);
      assert.equal(fieldsOf(waited.stdout).get('status'), 'failed');
      assert.match(waited.stderr, /request req_\w+ failed: the upload address expired at .* without an upload/);
    });
  });

  it('after its upload: succeeded with data_count and data_url', async () => {
    const { requestId, upload_url: uploadUrl } = await requestImport();
    const upload = await fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"id":"a"}\n{"id":"b"}\n' });
    assert.equal(upload.status, 200);
    const waited = await run(['data', 'status', 'listings', requestId, '--wait', '-o', 'table']);
    assert.equal(waited.code, 0, waited.stderr);
    const fields = fieldsOf(waited.stdout);
    assert.deepEqual([fields.get('status'), fields.get('data_count')], ['succeeded', '2']);
    assert.match(fields.get('data_url') ?? '', /\/_storage\/outputs\//);
  });
});
