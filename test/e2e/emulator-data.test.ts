import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCsafe, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

const api = async (emulator: EmulatorProcess, method: string, path: string, body?: unknown) => {
  const response = await fetch(emulator.baseUrl + path, {
    method,
    headers: { Authorization: `Bearer ${emulator.apiKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('csafe emulator start --data-dir', () => {
  it('keeps request records and upload URLs across a restart', async () => {
    const args = ['--data-dir', tempDir('csafe-emulator-data-'), '--processing-delay', '0'];
    const first = await startEmulatorProcess(args);
    let added: string;
    let issued: { requestId: string; upload_url: string };
    try {
      added = (await api(first, 'POST', '/v1/data/listings', { data: [{ id: 'a', text: 'buy now' }] })).body.requestId as string;
      issued = (await api(first, 'POST', '/v1/data/listings/import')).body as typeof issued;
    } finally {
      await first.stop();
    }

    const second = await startEmulatorProcess(args);
    try {
      const record = await api(second, 'GET', `/v1/data/listings/requests/${added}`);
      assert.equal(record.status, 200);
      assert.equal(record.body.status, 'succeeded');
      // Another port this time: the URL's path and signature are what the object store checks.
      const uploadUrl = new URL(issued.upload_url);
      const upload = await fetch(second.baseUrl + uploadUrl.pathname + uploadUrl.search, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: '{"id":"i1"}\n{"id":"i2"}\n',
      });
      assert.equal(upload.status, 200, await upload.text());
      const done = await waitFor(async () => {
        const current = await api(second, 'GET', `/v1/data/listings/requests/${issued.requestId}`);
        return current.body.status === 'succeeded' && current.body;
      }, { what: 'the import to succeed' });
      assert.equal(done.data_count, 2);
      const log = await second.requests();
      assert.ok(log.some((entry) => entry.path === uploadUrl.pathname && entry.auth === 'missing' && entry.status === 200));
    } finally {
      await second.stop();
    }
  });
});

describe('csafe --emulator: its data directory', () => {
  it('is refused, untouched, when it is not empty and not the emulator\'s (exit 2, one line)', async () => {
    const dataDir = tempDir('csafe-user-');
    mkdirSync(join(dataDir, 'uploads'));
    writeFileSync(join(dataDir, 'uploads', 'thesis.docx'), 'chapter 1');
    const result = await runCsafe(['--emulator', 'auth', 'status'], { env: { CSAFE_EMULATOR_DATA_DIR: dataDir } });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`--emulator's data directory ${dataDir} \\(CSAFE_EMULATOR_DATA_DIR\\): the directory is not empty`));
    assert.deepEqual(readdirSync(dataDir, { recursive: true }).map(String).sort(), ['uploads', join('uploads', 'thesis.docx')]);
  });

  it('that cannot be made says which directory, and which variable moves it (exit 1)', async () => {
    const file = join(tempDir('csafe-user-'), 'notes.txt');
    writeFileSync(file, 'a file, not a directory');
    const dataDir = join(file, 'emulator');
    const result = await runCsafe(['--emulator', 'auth', 'status'], { env: { CSAFE_EMULATOR_DATA_DIR: dataDir } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`^error: --emulator's data directory ${dataDir} \\(CSAFE_EMULATOR_DATA_DIR\\): cannot create or use it: `, 'm'));
    assert.match(result.stderr, /^hint: set CSAFE_EMULATOR_DATA_DIR to a directory you can write$/m);
  });
});
