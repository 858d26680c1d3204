import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { rmSync } from 'node:fs';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/cli.js';
import { addData, jsonl, manualClock, put, requestImport, waitForTerminal } from './data-support.js';
import { call, useTestEmulator } from './support.js';

interface StoredObject {
  id: string;
  adds: number;
  updated_at: string;
}

/** GET /_emulator/data/{namespace}, with the API key as every control route takes it. */
async function storedObjects(emulator: RunningEmulator, namespace: string): Promise<StoredObject[]> {
  const reply = await call(emulator, 'GET', `/_emulator/data/${encodeURIComponent(namespace)}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return (reply.body as { objects: StoredObject[] }).objects;
}

const addsById = (objects: readonly StoredObject[]) => Object.fromEntries(objects.map((object) => [object.id, object.adds]));

describe('emulator: objects are upserted by id', () => {
  const clock = manualClock();
  const emulator = useTestEmulator({ now: clock.now, processingDelayMs: 0 });

  test('adding an id the namespace holds replaces it: one object per id, with how often it was added and when last', async () => {
    await addData(emulator, 'listings', [{ id: 'a', text: 'one' }, { id: 'b' }]);
    clock.advance(5000);
    await addData(emulator, 'listings', [{ id: 'a', text: 'two' }, { id: 'c' }]);
    await addData(emulator, 'other', { id: 'a' });
    const objects = await storedObjects(emulator, 'listings');
    assert.deepEqual(addsById(objects), { a: 2, b: 1, c: 1 });
    assert.equal(objects.length, 3);
    const a = objects.find((object) => object.id === 'a')!;
    assert.equal(a.updated_at, new Date(clock.now()).toISOString());
    assert.deepEqual(addsById(await storedObjects(emulator, 'other')), { a: 1 });
    assert.deepEqual(await storedObjects(emulator, 'empty'), []);
  });

  test('the latest version is the one the review link shows', async () => {
    const first = await addData(emulator, 'listings', { id: 'a', text: 'first' });
    await addData(emulator, 'listings', { id: 'a', text: 'second' });
    // The link handed out with the first version leads to the object as it is now.
    const url = String((await waitForTerminal(emulator, 'listings', first)).data![0]!.url);
    const review = await fetch(url);
    assert.equal(review.status, 200);
    assert.equal(((await review.json()) as { output: { fields: { text: string } } }).output.fields.text, 'second');
  });

  test('an object that cannot be processed is not stored', async () => {
    await call(emulator, 'PUT', '/v1/data/listings/settings', { json: { schema: { photo: { content_type: 'image_url' } } } });
    await addData(emulator, 'listings', [{ id: 'ok' }, { id: 'bad', photo: 'not a url' }]);
    assert.deepEqual(addsById(await storedObjects(emulator, 'listings')), { ok: 1 });
  });

  test('a succeeded import upserts its objects too', async () => {
    await addData(emulator, 'listings', { id: 'a' });
    const issued = await requestImport(emulator, 'listings');
    assert.equal((await put(issued.upload_url, jsonl([{ id: 'a' }, { id: 'i1' }, { id: 'i1' }]))).status, 200);
    assert.equal((await waitForTerminal(emulator, 'listings', issued.requestId)).status, 'succeeded');
    assert.deepEqual(addsById(await storedObjects(emulator, 'listings')), { a: 2, i1: 2 });
  });

  test('reset forgets the objects', async () => {
    await addData(emulator, 'listings', { id: 'a' });
    assert.equal((await call(emulator, 'POST', '/_emulator/reset')).status, 200);
    assert.deepEqual(await storedObjects(emulator, 'listings'), []);
  });

  test('a namespace the service would refuse is not found (404)', async () => {
    assert.equal((await call(emulator, 'GET', `/_emulator/data/${encodeURIComponent('a b')}`)).status, 404);
  });
});

describe('emulator: stored objects across a restart', () => {
  const dataDir = tempDir('csafe-emulator-data-');
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('a restarted emulator on the same --data-dir keeps one object per id and its add count', async () => {
    const first = await startEmulator({ port: 0, processingDelayMs: 0, dataDir });
    try {
      await addData(first, 'listings', [{ id: 'a' }, { id: 'b' }]);
    } finally {
      await first.close();
    }
    const second = await startEmulator({ port: 0, processingDelayMs: 0, dataDir });
    try {
      await addData(second, 'listings', { id: 'a' });
      assert.deepEqual(addsById(await storedObjects(second, 'listings')), { a: 2, b: 1 });
    } finally {
      await second.close();
    }
  });
});
