import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { assertError, call, useTestEmulator } from './support.js';

// POST /_emulator/faults: a fault on the request a test chooses (by method, path pattern and how
// many matching requests to let through first), used up as it is met, gone after a reset.

const classify = (emulator: RunningEmulator) => call(emulator, 'POST', '/v1/content', { json: { user_id: 'u1', content: [{ type: 'text', text: 'hi' }] } });
const script = (emulator: RunningEmulator, faults: unknown[]) => call(emulator, 'POST', '/_emulator/faults', { json: { faults } });
const faultsLogged = async (emulator: RunningEmulator) =>
  ((await call(emulator, 'GET', '/_emulator/requests')).body as { requests: Array<{ path: string; status: number; fault: string | null }> }).requests.map((entry) => `${entry.status} ${entry.fault ?? '-'}`);

describe('scripted faults', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });

  test('skip, then times: the third and fourth matching requests meet the fault, others pass', async () => {
    assert.equal((await script(emulator, [{ kind: '500', method: 'POST', path: '/v1/content', skip: 2, times: 2 }])).status, 200);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await classify(emulator)).status);
    assert.deepEqual(statuses, [200, 200, 500, 500, 200, 200]);
    assert.deepEqual((await call(emulator, 'GET', '/_emulator/faults')).body, { faults: [] });
    assert.deepEqual(await faultsLogged(emulator), ['200 -', '200 -', '500 500', '500 500', '200 -', '200 -']);
  });

  test('a path pattern with :name segments; another method or path is not touched', async () => {
    await script(emulator, [{ kind: '503', method: 'GET', path: '/v1/decisions/:decisionId' }]);
    assert.equal((await classify(emulator)).status, 200);
    assert.equal((await call(emulator, 'GET', '/v1/decisions/dec_nope')).status, 503);
    assert.equal((await call(emulator, 'GET', '/v1/decisions/dec_nope')).status, 404);
  });

  test('401 refuses without processing; 429 carries Retry-After in either form', async () => {
    await script(emulator, [
      { kind: '401', path: '/v1/content' },
      { kind: '429', path: '/v1/content', retry_after: 'seconds' },
      { kind: '429', path: '/v1/content', retry_after: 'date' },
    ]);
    const refused = await classify(emulator);
    assertError(refused, 401);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await classify(emulator)).headers.get('retry-after'), '1');
    const date = Date.parse((await classify(emulator)).headers.get('retry-after') ?? '');
    assert.ok(date - Date.now() > 0 && date - Date.now() <= 2000, 'an HTTP date 1–2 s ahead');
  });

  test('a timeout holds the answer for delay_ms; a drop closes without one', async () => {
    await script(emulator, [{ kind: 'timeout', path: '/v1/content', delay_ms: 300 }, { kind: 'drop', path: '/v1/content' }]);
    const started = Date.now();
    assert.equal((await classify(emulator)).status, 200);
    assert.ok(Date.now() - started >= 290);
    await assert.rejects(classify(emulator));
  });

  test('cut: an upload is closed mid-body and nothing is stored; the next one is taken', async () => {
    await script(emulator, [{ kind: 'cut', method: 'PUT', path: '/_storage/imports/:namespace/:file' }]);
    const sent = await putSlowly(emulator, '/_storage/imports/ns/f.jsonl');
    assert.equal(sent, 'closed', 'the connection is closed while the body is still being sent');
    assert.deepEqual((await call(emulator, 'GET', '/_emulator/faults')).body, { faults: [] });
  });

  test('refused: unknown kinds, JSON errors on the object store, control routes, no path', async () => {
    assertError(await script(emulator, [{ kind: 'boom', path: '/v1/content' }]), 400, 'faults[0].kind');
    assertError(await script(emulator, [{ kind: '500', path: '/_storage/imports/:namespace/:file' }]), 400, 'faults[0].kind');
    assertError(await script(emulator, [{ kind: '500', path: '/_emulator/reset' }]), 400, 'faults[0].path');
    assertError(await script(emulator, [{ kind: '500' }]), 400, 'faults[0].path');
    assertError(await script(emulator, []), 400, 'faults');
  });

  test('a reset clears the script', async () => {
    await script(emulator, [{ kind: '500', path: '/v1/content', times: 5 }]);
    await call(emulator, 'POST', '/_emulator/reset');
    assert.equal((await classify(emulator)).status, 200);
  });
});

/** A PUT whose body comes in two parts 200 ms apart: 'closed' when the server closes the connection before it is all sent. */
function putSlowly(emulator: RunningEmulator, path: string): Promise<'closed' | number> {
  return new Promise((resolve) => {
    const req = request(`${emulator.baseUrl}${path}`, { method: 'PUT', headers: { 'content-length': 20 } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve('closed'));
    req.write('{"id":"a"}\n');
    setTimeout(() => req.end('{"id":"b"}'), 200).unref();
  });
}
