import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { addData, jsonl, put, requestImport, waitForTerminal } from './data-support.js';
import { call, callOk, withEmulator } from './support.js';

const AT = '2026-11-21T10:00:00Z';

/** Every directory and file under `root` (itself included) whose permissions are not 0700 / 0600. */
function openToOthers(root: string): string[] {
  const modeOf = (path: string) => statSync(path).mode & 0o777;
  const wrong = modeOf(root) === 0o700 ? [] : [`${root}: ${modeOf(root).toString(8)}`];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const expected = entry.isDirectory() ? 0o700 : 0o600;
    if (modeOf(path) !== expected) wrong.push(`${path}: ${modeOf(path).toString(8)}`);
  }
  return wrong;
}

/** One request of every kind that leaves something in the data directory. */
async function useEveryStore(emulator: RunningEmulator): Promise<void> {
  assert.equal((await call(emulator, 'PUT', '/v1/data/listings/settings', { json: { schema: { photo: { content_type: 'image_url' } } } })).status, 200);
  await addData(emulator, 'listings', { id: 'a', text: 'hello' });
  const issued = await requestImport(emulator, 'listings');
  await put(issued.upload_url, jsonl([{ id: 'p1', text: 'hi' }]));
  await waitForTerminal(emulator, 'listings', issued.requestId);
  assert.equal((await call(emulator, 'POST', '/v1/streams/live', { json: { id: 's', stream_url: 'https://example.com/s.m3u8' } })).status, 202);
  const part = { type: 'transcript', text: 'said in private', timestamp: AT };
  assert.equal((await call(emulator, 'POST', '/v1/streams/live/parts', { json: { id: 's', data: [part] } })).status, 202);
  const event = { type: 'create_account', event_name: 'signed_up', timestamp: AT, user_id: 'u1' };
  assert.equal((await call(emulator, 'POST', '/v1/events', { json: event })).status, 200);
  await callOk(emulator, 'POST', '/v1/decisions', { json: { type: 'text', content: { text: 'hello' } } });
  const batch = await callOk<{ batch_id: string; upload_url: string }>(emulator, 'POST', '/v1/batches', { json: { type: 'text' } });
  await put(batch.upload_url, 'id,Content\n1,hello\n', { 'Content-Type': 'text/csv' });
  await waitFor(async () => (await callOk<{ batch_status: string }>(emulator, 'GET', `/v1/batches/${batch.batch_id}`)).batch_status === 'SUCCESS', { what: 'the batch to succeed' });
  const older = await callOk<{ import_id: string; upload_url: string }>(emulator, 'POST', '/v1/import');
  await put(older.upload_url, jsonl([{ type: 'text', data: { text: 'hello' } }]), { 'Content-Type': 'application/jsonl' });
  await waitFor(async () => (await callOk<{ import_status: string }>(emulator, 'GET', `/v1/import/${older.import_id}`)).import_status === 'COMPLETE', { what: 'the older import to complete' });
}

describe('emulator: the data directory is private', () => {
  test('every directory the emulator creates in it is 0700 and every file 0600, the directory itself and its parents included', async () => {
    const parent = join(tempDir('csafe-emulator-modes-'), 'state');
    const dataDir = join(parent, 'csafe', 'emulator');
    await withEmulator({ dataDir }, useEveryStore);
    assert.deepEqual(openToOthers(parent), []);
  });
});
