import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { addData, jsonl, put, requestImport, waitForTerminal } from './data-support.js';
import { temporaryPathFor } from '../../src/emulator/stores/files.js';
import { assertError, call, startTestEmulator, useTestEmulator } from './support.js';
import { makeOld } from '../helpers/data-dirs.js';

const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const content = (metadata: string) => `{"user_id":"u","content":[{"type":"text","text":"hi"}],"metadata":${metadata}}`;

/** The .part files under a directory, relative to it. */
const partFiles = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.part'));

function temporaryDirectory(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'csafe-emulator-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('emulator: JSON nesting is limited and no request crashes the process', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });

  test('a body nested deeper than 66 (a record\'s 64 and its envelope) is a 400 naming the limit, on every JSON route', async () => {
    const deep = nested(67);
    const bodies: ReadonlyArray<[string, string, string]> = [
      ['POST', '/v1/content', content(`{"a":${deep}}`)],
      ['POST', '/v1/content', content(`{"a":${nested(4000)}}`)],
      ['POST', '/v1/async/events', deep],
      ['POST', '/v1/async/events', `{"type":"x","user_id":"u","data":${nested(5000)}}`],
      ['POST', '/v1/data/ns', `{"data":{"id":"a","metadata":${nested(4000)}}}`],
      ['PUT', '/v1/data/ns/settings', `{"schema":${nested(100)}}`],
      ['POST', '/_emulator/quirks', nested(70, '{}')],
    ];
    for (const [method, path, body] of bodies) {
      const error = assertError(await call(emulator, method, path, { body }), 400);
      assert.match(error.message, /nested deeper than 66/, `${method} ${path}`);
    }
    const strings = `{"user_id":"u","content":[{"type":"text","text":"${'['.repeat(200)}"}]}`;
    assert.equal((await call(emulator, 'POST', '/v1/content', { body: strings })).status, 200, 'brackets inside strings do not count');
    assert.equal((await call(emulator, 'POST', '/v1/content', { body: content(`{"a":${nested(64)}}`) })).status, 200, '66 levels are fine');
    assert.equal((await call(emulator, 'GET', '/_emulator/events')).status, 200);
  });

  test('a JSON null where the body of an endpoint of optional fields goes is a 400, as any body that is not an object; no body at all is fine', async () => {
    const paths = ['/v1/access_tokens', '/v1/import', '/v1/data/ns/import', '/v1/data/ns/requests/upload-url'];
    for (const path of paths) {
      assertError(await call(emulator, 'POST', path, { body: 'null' }), 400, '(body)');
      assertError(await call(emulator, 'POST', path, { body: '[]' }), 400, '(body)');
      assert.equal((await call(emulator, 'POST', path)).status, 200, `${path} with no body`);
    }
  });

  test('an import line nested deeper than 64 fails the import, naming the line and the limit', async () => {
    const issued = await requestImport(emulator, 'ns');
    const body = `${JSON.stringify({ id: 'a' })}\n{"id":"b","deep":${nested(6000)}}\n`;
    assert.equal((await put(issued.upload_url, body)).status, 200);
    const record = await waitForTerminal(emulator, 'ns', issued.requestId);
    assert.equal(record.status, 'failed');
    assert.match(record.error!.message, /^line 2: .*nested deeper than 64/);
  });

  test('a reset during an upload answers without the emulator\'s paths', async () => {
    const issued = await requestImport(emulator, 'ns');
    const first = jsonl([{ id: 'a' }]);
    const rest = jsonl([{ id: 'b' }]);
    const source = new Readable({ read() {} });
    const replied = put(issued.upload_url, source, { 'Content-Length': Buffer.byteLength(first + rest) });
    source.push(first);
    await sleep(100);
    assert.equal((await call(emulator, 'POST', '/_emulator/reset')).status, 200);
    source.push(rest);
    source.push(null);
    const reply = await replied;
    assert.doesNotMatch(reply.text, /ENOENT|\/tmp|csafe-emulator-|uploads\//, reply.text);
    assert.notEqual(reply.status, 200);
    assert.equal((await call(emulator, 'GET', '/_emulator/health')).status, 200);
  });
});

describe('emulator: stored data that is too deep to serialise is a 500, not a crash', () => {
  test('a request record nested 100,000 deep on disk', async (t) => {
    const dataDir = temporaryDirectory(t);
    await (await startTestEmulator({ dataDir })).close();
    const requestId = `req_${'0'.repeat(24)}`;
    const entry = `{"id":"a","url":"","output":{"actions":[],"fields":{},"labels":[]},"metadata":{"m":${nested(100_000)}}}`;
    writeFileSync(join(dataDir, 'requests', `${requestId}.json`), `{"kind":"add","namespace":"ns","request_id":"${requestId}","created_at":0,"entries":[${entry}]}`);
    const emulator = await startTestEmulator({ dataDir, processingDelayMs: 0 });
    t.after(() => emulator.close());
    const reply = await call(emulator, 'GET', `/v1/data/ns/requests/${requestId}`);
    const error = assertError(reply, 500);
    assert.doesNotMatch(error.message, /RangeError|stack|\//);
    assert.equal((await call(emulator, 'GET', '/_emulator/health')).status, 200, 'still running');
  });
});

/** Connects and sends a request's head one byte at a time; resolves when the server closes the connection. */
function slowHeaders(port: number, intervalMs: number): Promise<{ closed: boolean; received: string }> {
  const head = `GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let sent = 0;
    let received = '';
    const timer = setInterval(() => {
      if (sent < head.length && !socket.destroyed) socket.write(head[sent++]!);
    }, intervalMs);
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closed: sent < head.length, received });
    });
    socket.on('error', reject);
  });
}

describe('emulator: slow clients are cut off', () => {
  const emulator = useTestEmulator({ headersTimeoutMs: 300, bodyTimeoutMs: 300, uploadIdleTimeoutMs: 300, processingDelayMs: 0 });

  test('a client sending its headers slowly (slowloris) is disconnected', async () => {
    const outcome = await slowHeaders(emulator.port, 20);
    assert.ok(outcome.closed, 'the server closed the connection before the headers were complete');
    assert.match(outcome.received, /^(HTTP\/1\.1 408|$)/);
  });

  test('a non-upload body that does not arrive in time is a 408 and the connection is closed', async () => {
    const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${emulator.baseUrl}/v1/content`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${emulator.apiKey}`, 'Content-Type': 'application/json', 'Content-Length': 1000 },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write('{"user_id":');
    });
    assert.equal(reply.status, 408, reply.text);
  });

  test('an upload that stalls is cut off; a slow upload that keeps making progress succeeds', async () => {
    const stalled = await requestImport(emulator, 'ns');
    const stalledSource = new Readable({ read() {} });
    const cut = put(stalled.upload_url, stalledSource, { 'Content-Length': 100 }).then(
      () => 'answered',
      () => 'disconnected',
    );
    stalledSource.push('{"id":"a"}\n');
    assert.equal(await cut, 'disconnected');

    const issued = await requestImport(emulator, 'ns');
    const lines = Array.from({ length: 12 }, (_, index) => `${JSON.stringify({ id: `o${index}` })}\n`);
    const body = lines.join('');
    const source = new Readable({ read() {} });
    const replied = put(issued.upload_url, source, { 'Content-Length': Buffer.byteLength(body) });
    for (const line of lines) {
      source.push(line);
      await sleep(100); // 1.2 s overall: four times the idle limit, never idle for one
    }
    source.push(null);
    assert.equal((await replied).status, 200);
    assert.equal((await waitForTerminal(emulator, 'ns', issued.requestId)).data_count, 12);
  });
});

describe('emulator: bounded memory', () => {
  const emulator = useTestEmulator({ requestLogSize: 3 });

  test('the request log keeps the last --request-log-size entries', async () => {
    for (let index = 0; index < 5; index++) await call(emulator, 'GET', `/v1/data/ns/requests/req_${index}`);
    const { requests } = (await call(emulator, 'GET', '/_emulator/requests')).body as { requests: Array<{ path: string }> };
    assert.deepEqual(
      requests.map((entry) => entry.path),
      [2, 3, 4].map((index) => `/v1/data/ns/requests/req_${index}`),
    );
  });
});

describe('emulator: data directories', () => {
  test('review urls follow the address the record is read at, also after a restart on another port', async (t) => {
    const dataDir = temporaryDirectory(t);
    const first = await startTestEmulator({ dataDir, processingDelayMs: 0 });
    const requestId = await addData(first, 'ns', { id: 'a', text: 'hello' });
    await waitForTerminal(first, 'ns', requestId);
    await first.close();
    const second = await startTestEmulator({ dataDir, processingDelayMs: 0 });
    t.after(() => second.close());
    const record = await waitForTerminal(second, 'ns', requestId);
    const url = record.data![0]!.url as string;
    assert.ok(url.startsWith(`${second.baseUrl}/_emulator/review/ns/a?`), url);
    assert.equal((await fetch(url)).status, 200);
  });

  test('.part files of an emulator that crashed are removed at the next start; a live one\'s recent ones stay', async (t) => {
    const dataDir = temporaryDirectory(t);
    const emulator = await startTestEmulator({ dataDir });
    await emulator.close();
    mkdirSync(join(dataDir, 'namespaces', 'abc'), { recursive: true });
    const leftovers = [
      temporaryPathFor(join(dataDir, 'signing-secret')),
      temporaryPathFor(join(dataDir, 'events')),
      temporaryPathFor(join(dataDir, 'events-index')),
      temporaryPathFor(join(dataDir, 'requests', `req_${'1'.repeat(24)}.json`)),
      temporaryPathFor(join(dataDir, 'uploads', `req_${'2'.repeat(24)}.jsonl`)),
      temporaryPathFor(join(dataDir, 'namespaces', 'abc', 'settings.json')),
    ];
    for (const path of leftovers) writeFileSync(path, 'half');
    const scratch = temporaryPathFor(join(dataDir, 'uploads', 'scratch'));
    mkdirSync(scratch);
    for (const path of [...leftovers, scratch]) makeOld(path);
    const inFlight = temporaryPathFor(join(dataDir, 'uploads', `req_${'3'.repeat(24)}.jsonl`));
    writeFileSync(inFlight, 'another emulator is writing this');
    const restarted = await startTestEmulator({ dataDir });
    t.after(() => restarted.close());
    assert.deepEqual(partFiles(dataDir), [relative(dataDir, inFlight)]);
  });

  test('start-up removes no .part file but the emulator\'s own temporary ones, and follows no link out of the directory', async (t) => {
    const [dataDir, elsewhere] = [temporaryDirectory(t), temporaryDirectory(t)];
    await (await startTestEmulator({ dataDir })).close();
    const outside = temporaryPathFor(join(elsewhere, 'settings.json'));
    const users = [join(dataDir, 'film.mkv.part'), join(dataDir, 'uploads', 'thesis.docx.part'), temporaryPathFor(join(dataDir, 'notes.txt')), outside];
    for (const path of users) writeFileSync(path, 'mine');
    symlinkSync(elsewhere, join(dataDir, 'namespaces', 'linked'));
    for (const path of users) makeOld(path);
    const restarted = await startTestEmulator({ dataDir });
    t.after(() => restarted.close());
    for (const path of users) assert.ok(existsSync(path), `${path} is still there`);
  });
});
