import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ROUTES } from '../../src/emulator/http/server.js';
import { EVENT_EXAMPLES } from '../../src/schemas/event-examples.js';
import { EXAMPLES, useEmulatorProcess, withDeadline } from '../helpers/cli.js';
import { FUZZ_RUNS, FUZZ_SEED } from '../helpers/fuzz.js';
import { encodePng } from '../emulator/png.js';

// The emulator over HTTP, as an attacker or a broken client would use it: FUZZ_RUNS requests to
// every route (and to paths and methods it has none for), their paths, headers and bodies changed
// at random from valid ones. Each must get a 2xx or a 4xx with the one JSON error body — never a
// 500, a hang or a crash — and the process's memory must stay bounded.

/** Control switches that make the emulator fail or hold requests on purpose: not for a fuzzer to flip. */
const DELIBERATE_FAULTS = new Set(['POST /_emulator/quirks', 'POST /_emulator/release']);

const photo = encodePng(2, 2, () => [1, 2, 3]).toString('base64');

/** A valid body for each route that takes one (by pattern); the others get edited JSON of any kind. */
const VALID_BODIES: Record<string, unknown> = {
  '/v1/access_tokens': { expires_in: 600 },
  '/v1/content': { content: [{ type: 'text', text: 'hello' }, { type: 'image', source: { type: 'base64', data: photo } }], user_id: 'u1', metadata: { a: 1 } },
  '/v1/async/events': Object.values(EVENT_EXAMPLES),
  '/v1/events': EVENT_EXAMPLES.create_account,
  '/v1/data/:namespace/settings': { schema: JSON.parse(readFileSync(join(EXAMPLES, 'schema.json'), 'utf8')) as unknown },
  '/v1/data/:namespace': { data: [{ id: 'a', title: 'x' }] },
  '/v1/data/:namespace/import': {},
  '/v1/data/:namespace/requests/upload-url': {},
  '/v1/streams/:namespace': { id: 's1', stream_url: 'rtmp://127.0.0.1/live' },
  '/v1/streams/:namespace/parts': { id: 's1', data: [{ type: 'chat_message', sender_id: 'u1', sender_display_name: 'A', text: 'hi', timestamp: '2026-11-21T10:00:00Z' }] },
  '/v1/decisions': { type: 'text', content: { text: 'hello' } },
  '/v1/deletion_requests': { subject_user_id: 'u42', external_request_id: 'dsr-1', requested_at: '2026-11-27T10:00:00Z' },
  '/v1/agent_decisions': { content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: 'l-1', agent_type: 'policy_expert' },
  '/v1/import': {},
  '/v1/batches': { type: 'text' },
  '/_emulator/webhooks/endpoints': { url: 'http://127.0.0.1:9/hook', events: null },
  '/_emulator/webhooks/trigger': { type: 'workflow.succeeded', namespace: 'ns', id: 'req_1' },
  '/_emulator/reference_sets': { set_id: 'set-1', images: [photo] },
  '/_emulator/reset': {},
};

/** What a path parameter is given: plausible values, and what a path must not smuggle. */
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('ns', 'listings', 'req_0123456789abcdef01234567', 'bat_1', 'imp_1', 'dec_1', 'file.jsonl') },
  { weight: 2, arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2F', '%zz', 'UPPER', 'a%20b', '%00', 'x'.repeat(300), '%E9', '%C3%A9') },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
);

/** JSON values to put where a field was. */
const oddValue = fc.oneof(fc.constantFrom('', 'x', 0, -1, 1e21, true, null, [], {}, '\u0000', 'x'.repeat(2000)), fc.jsonValue({ maxDepth: 2 }));

/** A JSON body edited at random: a field dropped or set (at the top or one level down), or the whole body replaced. */
function editedJson(valid: unknown): fc.Arbitrary<unknown> {
  const edit = fc.tuple(fc.constantFrom('drop', 'set', 'replace'), fc.string({ maxLength: 8 }), oddValue, fc.nat());
  return fc.array(edit, { maxLength: 3 }).map((edits) => {
    let body = structuredClone(valid);
    for (const [kind, name, value, pick] of edits) {
      if (kind === 'replace' || body === null || typeof body !== 'object') body = value;
      else {
        const keys = Object.keys(body);
        const target = keys.length > 0 && pick % 3 === 0 ? keys[pick % keys.length]! : name;
        if (kind === 'drop') delete (body as Record<string, unknown>)[target];
        else Object.defineProperty(body, target, { value, enumerable: true, writable: true, configurable: true });
      }
    }
    return body;
  });
}

/** The bytes of a body: edited JSON, JSON with a key named twice, nested too deep, not UTF-8, or anything. */
function bodyBytes(valid: unknown): fc.Arbitrary<Buffer | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: editedJson(valid).map((value) => Buffer.from(JSON.stringify(value) ?? 'null')) },
    { weight: 1, arbitrary: fc.constantFrom('{"a":1,"a":2}', '['.repeat(70) + ']'.repeat(70), '{"id":', '', 'null', '"text"').map((text) => Buffer.from(text)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d])) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

function requestArbitrary(apiKey: string): fc.Arbitrary<FuzzRequest> {
  const routes = ROUTES.filter((route) => !DELIBERATE_FAULTS.has(`${route.method} ${route.pattern}`));
  const path = (pattern: string) =>
    fc.tuple(fc.array(segment, { minLength: 4, maxLength: 4 }), fc.oneof(fc.constant(''), fc.constantFrom('?page=2', '?limit=-1', '?x=%zz', '?cursor=' + 'z'.repeat(100)))).map(([values, query]) => {
      let next = 0;
      return pattern.replace(/:[A-Za-z]+/g, () => values[next++]!) + query;
    });
  const known = fc.constantFrom(...routes).chain((route) =>
    fc.record({
      method: fc.oneof({ weight: 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH') }),
      path: path(route.pattern),
      body: bodyBytes(VALID_BODIES[route.pattern] ?? {}),
    }),
  );
  const unknown = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
    path: fc.oneof(fc.constantFrom('/', '/v1', '/v1/', '/v2/content', '/_emulator', '/_storage/x', '/v1/data', '/v1/data//settings', '/%zz'), fc.webPath()),
    body: bodyBytes({}),
  });
  const headers = fc.record({
    authorization: fc.constantFrom(`Bearer ${apiKey}`, `Bearer ${apiKey}`, `Bearer ${apiKey}`, '', 'Bearer wrong', 'Basic eDp5', `bearer ${apiKey}`),
    'content-type': fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', '', 'application/x-ndjson'),
  });
  return fc.tuple(fc.oneof({ weight: 9, arbitrary: known }, { weight: 1, arbitrary: unknown }), headers).map(([target, chosen]) => ({
    method: target.method,
    path: target.path.startsWith('/') ? target.path : `/${target.path}`,
    // A GET with a body is legal HTTP; the emulator must cope, but most GETs come without.
    body: target.method === 'GET' && target.body !== undefined && target.body.length % 4 !== 0 ? undefined : target.body,
    headers: Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== '')),
  }));
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

function send(baseUrl: string, fuzzed: FuzzRequest): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: fuzzed.method, path: fuzzed.path, agent, headers: { ...fuzzed.headers, ...(fuzzed.body && { 'content-length': fuzzed.body.length }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(fuzzed.body);
  });
}

/** What is wrong with an answer, or undefined: a 2xx, or a 4xx with the JSON error body (or the object store's XML one). */
function answerProblem(path: string, answer: Answer): string | undefined {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 400) return undefined;
  // The object store answers in XML, as S3 does, once a request reaches it; the router's own 404, 405 and 400 are JSON.
  if (path.startsWith('/_storage/') && /^<\?xml[^>]*>\s*<Error><Code>\w+<\/Code><Message>/.test(answer.body)) return undefined;
  if (answer.body === '') return answer.status === 405 || answer.status === 404 ? undefined : `an empty ${answer.status}`;
  try {
    const parsed = JSON.parse(answer.body) as { error?: { message?: unknown } };
    return typeof parsed.error?.message === 'string' ? undefined : `a ${answer.status} without {"error":{"message"}}`;
  } catch {
    return `a ${answer.status} that is not JSON`;
  }
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

describe('fuzzing the emulator over HTTP', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);

  it(`${FUZZ_RUNS} changed requests across every route: 2xx or a 4xx JSON error, never a 500, a hang or a crash; memory bounded`, async () => {
    const requests = fc.sample(requestArbitrary(emulator.apiKey), { numRuns: FUZZ_RUNS, seed: FUZZ_SEED });
    const before = rssKb(emulator.child.pid!);
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const fuzzed = requests[next++]!;
        const what = `${fuzzed.method} ${fuzzed.path} (${fuzzed.body?.length ?? 0}-byte body)`;
        try {
          const answer = await withDeadline(send(emulator.baseUrl, fuzzed), 15_000, `the emulator's answer to ${what}`);
          const problem = answerProblem(fuzzed.path, answer);
          if (problem !== undefined) problems.push(`${what}: ${problem}: ${answer.body.slice(0, 200)} — sent ${JSON.stringify(fuzzed.headers)} ${JSON.stringify(fuzzed.body?.toString('latin1').slice(0, 300))}`);
        } catch (error) {
          problems.push(`${what}: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    agent.destroy();
    assert.deepEqual(problems.slice(0, 10), [], `${problems.length} of ${requests.length} requests (seed ${FUZZ_SEED}) went wrong`);
    assert.equal(emulator.child.exitCode, null, 'the emulator is still running');
    const after = rssKb(emulator.child.pid!);
    assert.ok(after < before + 200 * 1024, `RSS grew from ${before} kB to ${after} kB`);
    assert.ok(Array.isArray(await emulator.requests()), 'it still answers');
  });
});
