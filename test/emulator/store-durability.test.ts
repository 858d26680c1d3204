import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, statfsSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { digestName } from '../../src/emulator/stores/files.js';
import { LineFiles } from '../../src/emulator/stores/line-files.js';
import { startEmulatorProcess, tempDir, exitOf } from '../helpers/cli.js';
import { put, requestImport, waitForTerminal } from './data-support.js';
import { call, withEmulator } from './support.js';

const AT = '2026-11-21T10:00:00Z';
const chat = (text: string, sender = 'u7') => ({ type: 'chat_message', sender_display_name: 'Ann', sender_id: sender, text, timestamp: AT });

interface StreamView {
  parts: Array<{ text: string; sender_id: string }>;
}

const sendParts = (emulator: { baseUrl: string; apiKey: string }, id: string, data: unknown[]) =>
  fetch(`${emulator.baseUrl}/v1/streams/live/parts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${emulator.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ id, data }),
  });

/** GET …/streams/live/{id} must answer 200 with JSON that parses: its parts. */
async function storedParts(emulator: RunningEmulator, id: string): Promise<StreamView['parts']> {
  const reply = await call(emulator, 'GET', `/_emulator/streams/live/${id}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return (reply.body as StreamView).parts;
}

const namespaceFile = (dataDir: string, name: string) => join(dataDir, 'namespaces', digestName('live'), name);
const SMALL_DISK = { skip: process.getuid?.() === 0 && canMountTmpfs() ? false : 'needs root to mount a small tmpfs' };
const partsFile = (dataDir: string, id: string) => join(dataDir, 'streams', digestName('live'), digestName(id), 'parts.jsonl');

describe('emulator: a store file a killed emulator left half a line in', () => {
  test('is cut back to its last whole line when next opened: the inspection routes answer valid JSON, and new lines stay whole', async () => {
    const dataDir = tempDir('csafe-emulator-data-');
    await withEmulator({ dataDir }, async (emulator) => {
      assert.equal((await sendParts(emulator, 's', [chat('one')])).status, 202);
      assert.equal((await call(emulator, 'POST', '/v1/data/live', { json: { data: { id: 'a', text: 'hello' } } })).status, 202);
    });
    appendFileSync(partsFile(dataDir, 's'), '{"type":"chat_message","text":"half');
    appendFileSync(join(dataDir, 'streams', digestName('live'), 'ids'), '"hal');
    appendFileSync(namespaceFile(dataDir, 'objects'), '{"ids":["b"],"at":17');
    appendFileSync(namespaceFile(dataDir, 'requests'), 'req_0');

    await withEmulator({ dataDir }, async (emulator) => {
      assert.deepEqual((await storedParts(emulator, 's')).map((part) => part.text), ['one']);
      assert.equal((await sendParts(emulator, 's', [chat('two')])).status, 202);
      assert.deepEqual((await storedParts(emulator, 's')).map((part) => part.text), ['one', 'two']);
      assert.deepEqual((await call(emulator, 'GET', '/_emulator/streams/live')).body, { streams: ['s'] });
      assert.equal((await call(emulator, 'POST', '/v1/data/live', { json: { data: { id: 'c', text: 'hello' } } })).status, 202);
      const listing = await call(emulator, 'GET', '/_emulator/data/live');
      assert.equal(listing.status, 200, JSON.stringify(listing.body));
      assert.deepEqual((listing.body as { objects: Array<{ id: string }> }).objects.map((object) => object.id), ['a', 'c']);
    });
    for (const file of [partsFile(dataDir, 's'), namespaceFile(dataDir, 'objects'), namespaceFile(dataDir, 'requests')]) {
      for (const line of readFileSync(file, 'utf8').trimEnd().split('\n')) assert.doesNotMatch(line, /half|"at":17[^\d]|req_0req/, file);
    }
  });
});

describe('emulator: a stream a killed emulator made but did not list', () => {
  test('is listed, once, by the next request for it: whether its directory or parts exist says nothing of the list', async () => {
    const dataDir = tempDir('csafe-emulator-data-');
    await withEmulator({ dataDir }, async (emulator) => {
      assert.equal((await sendParts(emulator, 'listed', [chat('one')])).status, 202);
    });
    // Killed after making the directory of 'bare', and after storing parts of 'unlisted', before either was listed.
    mkdirSync(join(dataDir, 'streams', digestName('live'), digestName('bare')));
    mkdirSync(join(dataDir, 'streams', digestName('live'), digestName('unlisted')));
    writeFileSync(partsFile(dataDir, 'unlisted'), `${JSON.stringify({ ...chat('not acknowledged'), labels: [] })}\n`);

    await withEmulator({ dataDir }, async (emulator) => {
      for (const id of ['bare', 'unlisted', 'listed']) assert.equal((await sendParts(emulator, id, [chat('two')])).status, 202);
      assert.deepEqual((await call(emulator, 'GET', '/_emulator/streams/live')).body, { streams: ['listed', 'bare', 'unlisted'] });
      assert.deepEqual((await storedParts(emulator, 'bare')).map((part) => part.text), ['two']);
    });
  });
});

describe('emulator: an append that fails part-way', () => {
  test('leaves every file of the request exactly as it was (LineFiles)', async () => {
    const dir = tempDir('csafe-line-files-');
    const [first, second] = [join(dir, 'first'), join(dir, 'second')];
    writeFileSync(first, 'a\n');
    writeFileSync(second, 'b\n');
    // The disk fills after 3 bytes of the second file's append, as ENOSPC does: a short write, then the error.
    let room = 3;
    const fillingDisk = async (file: FileHandle, bytes: Buffer, position: number) => {
      if (room === 0 && bytes.length > 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const taken = Math.min(room, bytes.length);
      room -= taken;
      return (await file.write(bytes, 0, taken, position)).bytesWritten;
    };
    const files = new LineFiles(fillingDisk);
    room = Infinity;
    await files.append([{ path: first, bytes: Buffer.from('whole\n') }]);
    room = 3;
    await assert.rejects(files.append([{ path: first, bytes: Buffer.from('x\n') }, { path: second, bytes: Buffer.from('yyyy\nzzzz\n') }]), { code: 'ENOSPC' });
    assert.equal(readFileSync(first, 'utf8'), 'a\nwhole\n');
    assert.equal(readFileSync(second, 'utf8'), 'b\n');
  });

  test('on a full disk: the request answers 500, the stream is as before, and it takes parts again once there is room', SMALL_DISK, () =>
    onSmallDisk((dataDir) =>
      withEmulator({ dataDir }, async (emulator) => {
        assert.equal((await sendParts(emulator, 's', [chat('first')])).status, 202);
        const before = readFileSync(partsFile(dataDir, 's'));
        const big = Array.from({ length: 10 }, (_, n) => chat(`${n}`.padEnd(300_000, 'x')));
        const refused = await sendParts(emulator, 's', big);
        assert.equal(refused.status, 500, await refused.text());
        assert.deepEqual(readFileSync(partsFile(dataDir, 's')), before, 'nothing of the failed request is left');
        const fresh = await sendParts(emulator, 'new', big);
        assert.equal(fresh.status, 500);
        assert.deepEqual((await call(emulator, 'GET', '/_emulator/streams/live')).body, { streams: ['s'] }, 'a stream the failed request created is gone again');
        assert.equal((await sendParts(emulator, 's', [chat('second')])).status, 202);
        assert.deepEqual((await storedParts(emulator, 's')).map((part) => part.text), ['first', 'second']);
      }),
    ));
});

describe('emulator: a record that does not fit on the disk', () => {
  test('answers 500 and leaves no temporary file taking up the room that is left', SMALL_DISK, () =>
    onSmallDisk((dataDir) =>
      withEmulator({ dataDir }, async (emulator) => {
        const add = (text: string) => call(emulator, 'POST', '/v1/data/live', { json: { data: [{ id: 'a', text }] } });
        assert.equal((await add('x'.repeat(2_500_000))).status, 500);
        const temporary = readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.part'));
        assert.deepEqual(temporary, [], 'no temporary file of the failed request is left');
        assert.equal((await add('hello')).status, 202);
      }),
    ));
});

describe('emulator: an import upload that does not fit on the disk', () => {
  test('is not acknowledged, leaves no temporary file taking up the room, and a smaller upload lands after', SMALL_DISK, () =>
    onSmallDisk((dataDir) =>
      withEmulator({ dataDir }, async (emulator) => {
        const tooBig = await requestImport(emulator, 'live');
        // The emulator may answer 500 or cut the connection; it must not answer 200.
        // On a connection of its own: the emulator may close it before the body is sent.
        const refused = await put(tooBig.upload_url, Buffer.alloc(3_000_000, '{"id":"a"}\n'), { Connection: 'close' }).catch(() => undefined);
        assert.ok(refused === undefined || refused.status >= 500, `answered ${refused?.status}: ${refused?.text}`);
        const temporary = readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.part'));
        assert.deepEqual(temporary, [], 'no temporary file of the failed upload is left');
        const fits = await requestImport(emulator, 'live');
        assert.equal((await put(fits.upload_url, '{"id":"b"}\n'.repeat(20_000))).status, 200);
        const landed = await waitForTerminal(emulator, 'live', fits.requestId);
        assert.equal(landed.status, 'succeeded', JSON.stringify(landed.error));
      }),
    ));
});

describe('emulator: a webhook endpoint that cannot be saved (a full disk)', () => {
  test('answers 500 and is not registered: not listed, and a retry once there is room registers it once', SMALL_DISK, () =>
    onSmallDisk((dataDir) =>
      withEmulator({ dataDir }, async (emulator) => {
        const add = () => call(emulator, 'POST', '/_emulator/webhooks/endpoints', { json: { url: 'http://127.0.0.1:9/hook' } });
        const listed = async () => ((await call(emulator, 'GET', '/_emulator/webhooks/endpoints')).body as { endpoints: Array<{ url: string }> }).endpoints.map((endpoint) => endpoint.url);
        const filler = fillDisk(dataDir);
        assert.equal((await add()).status, 500);
        assert.deepEqual(await listed(), [], 'an endpoint whose registration failed is not registered');
        rmSync(filler);
        assert.equal((await add()).status, 201);
        assert.deepEqual(await listed(), ['http://127.0.0.1:9/hook']);
      }),
    ));

  test('a removal that cannot be saved answers 500 and leaves the endpoint registered, to be removed by a retry', SMALL_DISK, () =>
    onSmallDisk(async (dataDir) => {
      const listed = async (emulator: RunningEmulator) => ((await call(emulator, 'GET', '/_emulator/webhooks/endpoints')).body as { endpoints: Array<{ url: string }> }).endpoints.map((endpoint) => endpoint.url);
      await withEmulator({ dataDir }, async (emulator) => {
        const added = await call(emulator, 'POST', '/_emulator/webhooks/endpoints', { json: { url: 'http://127.0.0.1:9/hook' } });
        const remove = () => call(emulator, 'DELETE', `/_emulator/webhooks/endpoints/${(added.body as { endpoint_id: string }).endpoint_id}`);
        const filler = fillDisk(dataDir);
        assert.equal((await remove()).status, 500);
        assert.deepEqual(await listed(emulator), ['http://127.0.0.1:9/hook'], 'an endpoint whose removal failed is still registered');
        rmSync(filler);
        assert.equal((await remove()).status, 200);
      });
      await withEmulator({ dataDir }, async (restarted) => assert.deepEqual(await listed(restarted), []));
    }));
});

describe('emulator: two emulators on one data directory', () => {
  test('a stream both send parts to is listed once', async () => {
    const dataDir = tempDir('csafe-emulator-shared-');
    await withEmulator({ dataDir }, (first) =>
      withEmulator({ dataDir }, async (second) => {
        // The first lists the namespace's streams before the second adds one.
        assert.equal((await sendParts(first, 'one', [chat('a')])).status, 202);
        assert.equal((await sendParts(second, 'two', [chat('b')])).status, 202);
        assert.equal((await sendParts(first, 'two', [chat('c')])).status, 202);
        for (const emulator of [first, second]) assert.deepEqual((await call(emulator, 'GET', '/_emulator/streams/live')).body, { streams: ['one', 'two'] });
      }),
    );
  });
});

describe('emulator: killed with SIGKILL while large parts requests are being written', () => {
  test('a restart on the same data directory has every acknowledged part, and the inspection routes answer valid JSON', async () => {
    const dataDir = tempDir('csafe-emulator-killed-');
    const emulator = await startEmulatorProcess(['--data-dir', dataDir]);
    const acknowledged = new Set<string>();
    // Four streams, eight requests of about 2.4 MB each: writes of several hundred KiB are under way when the kill comes.
    const requests = Array.from({ length: 8 }, (_, n) => {
      const tag = `r${n}`;
      const data = Array.from({ length: 8 }, (_, k) => chat(`${tag} ${k} `.padEnd(300_000, 'w'), tag));
      return sendParts(emulator, `s${n % 4}`, data).then(
        (reply) => void (reply.status === 202 && acknowledged.add(tag)),
        () => undefined,
      );
    });
    const exited = exitOf(emulator.child);
    await Promise.race(requests);
    emulator.child.kill('SIGKILL');
    await exited;
    await Promise.all(requests);
    assert.ok(acknowledged.size > 0, 'at least one request was acknowledged before the kill');

    await withEmulator({ dataDir }, async (restarted) => {
      const streams = ((await call(restarted, 'GET', '/_emulator/streams/live')).body as { streams: string[] }).streams;
      // A part sent after the restart must not be glued onto half a line the kill left.
      for (const id of streams) assert.equal((await sendParts(restarted, id, [chat('after', 'later')])).status, 202);
      const stored = new Map<string, number>();
      for (const id of streams) {
        for (const part of await storedParts(restarted, id)) stored.set(part.sender_id, (stored.get(part.sender_id) ?? 0) + 1);
      }
      for (const tag of acknowledged) assert.equal(stored.get(tag), 8, `all 8 parts of acknowledged request ${tag}`);
      assert.equal(stored.get('later'), streams.length);
    });
  });
});

/** A file taking all the room left on the file system of `dir`: its path, to remove when there should be room again. */
function fillDisk(dir: string): string {
  const filler = join(dir, 'filler');
  const { bavail, bsize } = statfsSync(dir);
  writeFileSync(filler, Buffer.alloc(bavail * bsize));
  return filler;
}

/** A 2 MB file system as the data directory, for what happens when the disk fills: needs root, and a machine that lets it mount. */
async function onSmallDisk(body: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = tempDir('csafe-emulator-full-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0700', 'tmpfs', dataDir]);
  try {
    await body(dataDir);
  } finally {
    execFileSync('umount', [dataDir]);
  }
}

function canMountTmpfs(): boolean {
  const probe = tempDir('csafe-mount-probe-');
  mkdirSync(probe, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return readdirSync(probe).length === 0;
  } catch {
    return false;
  } finally {
    rmdirSync(probe);
  }
}
