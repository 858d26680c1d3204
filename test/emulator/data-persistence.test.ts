import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { tempDir } from '../helpers/cli.js';
import { addData, getRecord, jsonl, put, requestImport, waitForTerminal } from './data-support.js';
import { call, withEmulator } from './support.js';

const PHOTO_SCHEMA = { schema: { photo: { content_type: 'image_url' } } };

describe('emulator: data directory', () => {
  test('a restarted emulator answers for earlier requests, upload URLs and data URLs, under the earlier settings', async () => {
    const dataDir = tempDir('csafe-emulator-data-');
    const earlier = await withEmulator({ dataDir }, async (emulator) => {
      await call(emulator, 'PUT', '/v1/data/listings/settings', { json: PHOTO_SCHEMA });
      const added = await addData(emulator, 'listings', { id: 'a', text: 'kill' });
      const pending = await requestImport(emulator, 'listings');
      const processed = await requestImport(emulator, 'listings');
      await put(processed.upload_url, jsonl([{ id: 'p1' }, { id: 'p2' }]));
      const { data_url: dataUrl } = await waitForTerminal(emulator, 'listings', processed.requestId);
      return { port: emulator.port, added, pending, dataUrl: dataUrl! };
    });

    await withEmulator({ dataDir, port: earlier.port }, async (emulator) => {
      const added = await getRecord(emulator, 'listings', earlier.added);
      assert.equal(added.status, 'succeeded');
      assert.deepEqual((added.data![0]!.output as { labels: unknown[] }).labels, [{ label: 'violence', score: 0.85, decision: 'match' }]);
      const upload = await put(earlier.pending.upload_url, jsonl([{ id: 'q1', photo: 'not a url' }]));
      assert.equal(upload.status, 200, upload.text);
      const record = await waitForTerminal(emulator, 'listings', earlier.pending.requestId);
      assert.match(record.error!.message, /^line 1: photo: expected an http\(s\) URL/, 'the settings survived too');
      assert.equal((await (await fetch(earlier.dataUrl)).text()).trim().split('\n').length, 2);
    });
  });

  test('an upload whose processing was cut off by a stop is processed when its record is next read', async () => {
    const dataDir = tempDir('csafe-emulator-data-');
    const requestId = await withEmulator({ dataDir }, async (emulator) => {
      const issued = await requestImport(emulator, 'listings');
      await put(issued.upload_url, jsonl([{ id: 'p1' }]));
      await waitForTerminal(emulator, 'listings', issued.requestId);
      return issued.requestId;
    });
    const recordFile = join(dataDir, 'requests', `${requestId}.json`);
    const { outcome: _dropped, ...unfinished } = JSON.parse(readFileSync(recordFile, 'utf8'));
    writeFileSync(recordFile, JSON.stringify(unfinished));

    await withEmulator({ dataDir }, async (emulator) => {
      assert.equal((await waitForTerminal(emulator, 'listings', requestId)).data_count, 1);
    });
  });

  test('an upload is streamed to disk as it arrives, not gathered in memory first', async () => {
    const dataDir = tempDir('csafe-emulator-data-');
    await withEmulator({ dataDir }, async (emulator) => {
      const issued = await requestImport(emulator, 'listings');
      const line = `${JSON.stringify({ id: 'x', text: 'y'.repeat(1000) })}\n`;
      const half = Buffer.from(line.repeat(8 * 1024));
      const body = new PassThrough();
      const reply = put(issued.upload_url, body, { 'Content-Length': half.length * 2 });
      body.write(half);
      const partial = await waitForFile(join(dataDir, 'uploads'), half.length / 2);
      assert.ok(partial.endsWith('.part'), 'written under a temporary name until complete');
      body.end(half);
      assert.equal((await reply).status, 200);
      assert.equal((await waitForTerminal(emulator, 'listings', issued.requestId)).data_count, 16 * 1024);
    });
  });
});

/** The name of the first file in `directory` to reach `size` bytes; fails after 5 s. */
async function waitForFile(directory: string, size: number): Promise<string> {
  for (let attempt = 0; attempt < 250; attempt++) {
    const grown = readdirSync(directory).find((name) => statSync(join(directory, name)).size >= size);
    if (grown !== undefined) return grown;
    await sleep(20);
  }
  assert.fail(`no file in ${directory} reached ${size} bytes`);
}
