import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'node:test';
import { addData, jsonl, put, requestImport, s3Code, waitForTerminal } from './data-support.js';
import { assertError, call, startTestEmulator, useTestEmulator } from './support.js';

/** A signature parameter replaced by `change(original)`; the rest of the URL as issued. */
function withSignature(url: string, change: (signature: string) => string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('X-Csafe-Signature', change(parsed.searchParams.get('X-Csafe-Signature')!));
  return parsed.toString();
}

const CONTROL_ROUTES: ReadonlyArray<[string, string]> = [
  ['GET', '/_emulator/health'],
  ['GET', '/_emulator/requests'],
  ['DELETE', '/_emulator/requests'],
  ['POST', '/_emulator/reset'],
  ['POST', '/_emulator/quirks'],
  ['POST', '/_emulator/reference_sets'],
  ['GET', '/_emulator/events'],
  ['DELETE', '/_emulator/events'],
  ['GET', '/_emulator/data/kept'],
  ['GET', '/_emulator/streams/kept'],
  ['GET', '/_emulator/streams/kept/s1'],
  ['POST', '/_emulator/batches/bat_000000000000000000000000/cancel'],
];

describe('emulator: control routes need the API key; browsers cannot reach across sites', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });

  test('every /_emulator control route is a 401 without the key and with a wrong one', async () => {
    for (const [method, path] of CONTROL_ROUTES) {
      assertError(await call(emulator, method, path, { key: null }), 401);
      assertError(await call(emulator, method, path, { key: 'sk_wrong' }), 401);
    }
  });

  test('an access token is not the key: every control route wants the API key itself', async () => {
    const issued = await call(emulator, 'POST', '/v1/access_tokens', { json: {} });
    const token = (issued.body as { access_token: string }).access_token;
    for (const [method, path] of CONTROL_ROUTES) assertError(await call(emulator, method, path, { key: token }), 403);
  });

  test('a cross-site reset (foreign Origin, text/plain) is refused and wipes nothing', async () => {
    const requestId = await addData(emulator, 'kept', { id: 'a', text: 'hello' });
    const reply = await call(emulator, 'POST', '/_emulator/reset', {
      body: 'x',
      headers: { Origin: 'http://evil.example', 'Content-Type': 'text/plain' },
    });
    assertError(reply, 403);
    assert.equal((await call(emulator, 'GET', `/v1/data/kept/requests/${requestId}`)).status, 200, 'the data survived');
  });

  test('a foreign Origin is a 403 on /v1 and /_storage too; the own origin is fine', async () => {
    const json = { user_id: 'u', content: [{ type: 'text', text: 'hi' }] };
    for (const origin of ['http://evil.example', 'null', `http://localhost:${emulator.port}`]) {
      assertError(await call(emulator, 'POST', '/v1/content', { json, headers: { Origin: origin } }), 403);
    }
    assert.equal((await call(emulator, 'POST', '/v1/content', { json, headers: { Origin: emulator.baseUrl } })).status, 200);
    const issued = await requestImport(emulator, 'ns');
    const reply = await put(issued.upload_url, jsonl([{ id: 'a' }]), { Origin: 'http://evil.example' });
    assert.equal(reply.status, 403);
  });

  test('a page whose name was re-pointed at the emulator (DNS rebinding) is refused by its Host, even with a matching Origin', async () => {
    const site = `evil.example:${emulator.port}`;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${emulator.baseUrl}/_emulator/reset`, {
        method: 'POST',
        headers: { Host: site, Origin: `http://${site}`, Authorization: `Bearer ${emulator.apiKey}` },
      });
      req.on('response', (res) => resolve(res.resume().statusCode!)).on('error', reject).end();
    });
    assert.equal(status, 403);
    assert.equal((await call(emulator, 'GET', '/_emulator/health', { headers: { Origin: `http://localhost:${emulator.port}` } })).status, 403, 'an origin other than the one addressed');
  });

  test('a foreign Origin is a 403 before any injected fault is drawn', async (t) => {
    const faulty = await startTestEmulator({ faults: { rate: 1, kinds: ['503'], seed: 1, delayMs: 0 } });
    t.after(() => faulty.close());
    const json = { user_id: 'u', content: [{ type: 'text', text: 'hi' }] };
    assertError(await call(faulty, 'POST', '/v1/content', { json, headers: { Origin: 'http://evil.example' } }), 403);
    assertError(await call(faulty, 'POST', '/v1/content', { json }), 503);
  });

  test('a body that is not declared JSON is a 415 on a JSON route; an empty body needs no type', async () => {
    const text = JSON.stringify({ user_id: 'u', content: [{ type: 'text', text: 'hi' }] });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      assertError(await call(emulator, 'POST', '/v1/content', { body: text, headers: { 'Content-Type': type } }), 415);
    }
    assertError(await call(emulator, 'POST', '/_emulator/quirks', { body: '{}', headers: { 'Content-Type': 'text/plain' } }), 415);
    assert.equal((await call(emulator, 'POST', '/v1/content', { body: text, headers: { 'Content-Type': 'application/json; charset=utf-8' } })).status, 200);
    assert.equal((await call(emulator, 'POST', '/_emulator/reset')).status, 200);
  });

  test('review links are signed: the record\'s url opens without a key; unsigned or tampered is a 403', async () => {
    const requestId = await addData(emulator, 'listings', { id: 'item-1', text: 'hello' });
    const record = await waitForTerminal(emulator, 'listings', requestId);
    const url = record.data![0]!.url as string;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/_emulator\/review\/listings\/item-1\?X-Csafe-Signature=[0-9a-f]{64}$/);
    const opened = await fetch(url);
    assert.equal(opened.status, 200);
    assert.equal(((await opened.json()) as { id: string }).id, 'item-1');

    const unsigned = new URL(url);
    unsigned.search = '';
    assertError(await call(emulator, 'GET', unsigned.pathname, { key: null }), 403);
    assertError(await call(emulator, 'GET', unsigned.pathname), 403);
    const otherObject = url.replace('/item-1?', '/item-2?');
    assert.equal((await fetch(otherObject)).status, 403);
    assert.equal((await fetch(withSignature(url, (s) => s.toUpperCase()))).status, 403);
  });
});

describe('emulator: pre-signed signatures are compared exactly', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });
  const changes: ReadonlyArray<[string, (signature: string) => string]> = [
    ['0 appended', (s) => `${s}0`],
    ['zz appended', (s) => `${s}zz`],
    ['0g appended', (s) => `${s}0g`],
    ['upper case', (s) => s.toUpperCase()],
    ['cut short', (s) => s.slice(0, 62)],
  ];

  test('on PUT: anything but the 64 lowercase hex characters is SignatureDoesNotMatch', async () => {
    const issued = await requestImport(emulator, 'ns');
    for (const [name, change] of changes) {
      const reply = await put(withSignature(issued.upload_url, change), jsonl([{ id: 'a' }]));
      assert.equal(reply.status, 403, name);
      assert.equal(s3Code(reply.text), 'SignatureDoesNotMatch', name);
    }
    const duplicated = `${issued.upload_url}&X-Csafe-Signature=${'0'.repeat(64)}`;
    assert.equal((await put(duplicated, jsonl([{ id: 'a' }]))).status, 403, 'a second signature parameter');
    const reordered = issued.upload_url.replace('X-Csafe-Signature', 'X-Csafe-Signature=0&X-Csafe-Signature');
    assert.equal((await put(reordered, jsonl([{ id: 'a' }]))).status, 403, 'a second signature parameter first');
    assert.equal((await put(issued.upload_url, jsonl([{ id: 'a' }]))).status, 200, 'the URL as issued still works');
  });

  test('on GET of data_url too', async () => {
    const issued = await requestImport(emulator, 'ns');
    assert.equal((await put(issued.upload_url, jsonl([{ id: 'a' }]))).status, 200);
    const record = await waitForTerminal(emulator, 'ns', issued.requestId);
    for (const [name, change] of changes) {
      assert.equal((await fetch(withSignature(record.data_url!, change))).status, 403, name);
    }
    assert.equal((await fetch(`${record.data_url!}&X-Csafe-Signature=${'0'.repeat(64)}`)).status, 403, 'a second signature parameter');
    assert.equal((await fetch(record.data_url!)).status, 200);
  });
});
