import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BodySample, REQUEST_LOG_BODY_BYTES, type RequestLogEntry } from '../../src/emulator/http/request-log.js';
import { jsonl, put, requestImport } from './data-support.js';
import { call, useTestEmulator } from './support.js';

const textContent = (text: string) => ({ user_id: 'user_1', content: [{ type: 'text', text }] });

const bodyOf = ({ body, body_bytes, body_truncated }: RequestLogEntry) => ({ body, body_bytes, body_truncated });

describe('emulator request log: bodies', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });

  const logged = async () => ((await call(emulator, 'GET', '/_emulator/requests')).body as { requests: RequestLogEntry[] }).requests;

  test('keeps a JSON body as text, with its length, on the control route and in process alike', async () => {
    const sent = JSON.stringify(textContent('héllo'));
    await call(emulator, 'POST', '/v1/content', { body: sent });
    const [entry] = await logged();
    assert.deepEqual(bodyOf(entry!), { body: sent, body_bytes: Buffer.byteLength(sent), body_truncated: false });
    assert.deepEqual(emulator.requests(), [entry]);
  });

  test('a request without a body logs null and 0 bytes', async () => {
    await call(emulator, 'GET', '/v1/data/listings/settings');
    assert.deepEqual(bodyOf((await logged())[0]!), { body: null, body_bytes: 0, body_truncated: false });
  });

  test(`a body of exactly ${REQUEST_LOG_BODY_BYTES} bytes is kept whole; one byte more keeps the first ${REQUEST_LOG_BODY_BYTES} and the full length`, async () => {
    const frame = JSON.stringify(textContent(''));
    const exact = JSON.stringify(textContent('x'.repeat(REQUEST_LOG_BODY_BYTES - frame.length)));
    const over = JSON.stringify(textContent('x'.repeat(REQUEST_LOG_BODY_BYTES - frame.length + 1)));
    assert.equal(exact.length, REQUEST_LOG_BODY_BYTES);
    await call(emulator, 'POST', '/v1/content', { body: exact });
    await call(emulator, 'POST', '/v1/content', { body: over });
    const [whole, cut] = await logged();
    assert.deepEqual(bodyOf(whole!), { body: exact, body_bytes: REQUEST_LOG_BODY_BYTES, body_truncated: false });
    assert.deepEqual(bodyOf(cut!), { body: over.slice(0, REQUEST_LOG_BODY_BYTES), body_bytes: REQUEST_LOG_BODY_BYTES + 1, body_truncated: true });
  });

  test('a streamed upload to a pre-signed URL logs its first bytes and its whole length, not its query', async () => {
    const issued = await requestImport(emulator, 'listings');
    const objects = Array.from({ length: 400 }, (_, index) => ({ id: `o${index}`, text: `object number ${index}` }));
    const upload = jsonl(objects);
    assert.ok(Buffer.byteLength(upload) > 2 * REQUEST_LOG_BODY_BYTES);
    assert.equal((await put(issued.upload_url, upload)).status, 200);
    const entry = (await logged()).find((logEntry) => logEntry.method === 'PUT')!;
    assert.equal(entry.path, `/_storage/${issued.objectKey}`);
    assert.deepEqual(bodyOf(entry), { body: upload.slice(0, REQUEST_LOG_BODY_BYTES), body_bytes: Buffer.byteLength(upload), body_truncated: true });
  });
});

describe('BodySample', () => {
  test('keeps the first bytes across chunks, up to the limit exactly, and counts them all', () => {
    const sample = new BodySample();
    sample.add(Buffer.alloc(REQUEST_LOG_BODY_BYTES - 1, 'a'));
    sample.add(Buffer.from('bc'));
    sample.add(Buffer.from('d'));
    sample.add(Buffer.alloc(0));
    assert.deepEqual(sample.entry(), { body: `${'a'.repeat(REQUEST_LOG_BODY_BYTES - 1)}b`, body_bytes: REQUEST_LOG_BODY_BYTES + 2, body_truncated: true });
  });

  test('an empty body is null; one that fills the limit exactly is whole', () => {
    const empty = new BodySample();
    empty.add(Buffer.alloc(0));
    assert.deepEqual(empty.entry(), { body: null, body_bytes: 0, body_truncated: false });
    const full = new BodySample();
    full.add(Buffer.alloc(REQUEST_LOG_BODY_BYTES, 'x'));
    assert.deepEqual(full.entry(), { body: 'x'.repeat(REQUEST_LOG_BODY_BYTES), body_bytes: REQUEST_LOG_BODY_BYTES, body_truncated: false });
  });
});
