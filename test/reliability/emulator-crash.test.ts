import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../src/emulator/http/faults.js';
import { startEmulatorProcess, tempDir, withDeadline, type EmulatorProcess } from '../helpers/cli.js';

// The emulator killed (SIGKILL) while requests append to each of its stores, at points drawn from a
// seed, then started again on the same --data-dir: everything it acknowledged is there, every
// inspection route answers JSON, and the store takes new records. CSAFE_CRASH_SEED replays or
// varies the points.

const SEED = Number(process.env.CSAFE_CRASH_SEED ?? 20_261_127);
/** Kills per store. */
const ROUNDS = 3;
/** Requests in flight while the kill comes, so it lands mid-append. */
const WRITERS = 4;
const AT = '2026-11-27T10:00:00Z';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One store: how a record is added (its id once the emulator answered 2xx), and which of the ids it holds. */
interface Store {
  name: string;
  add(emulator: EmulatorProcess, i: number): Promise<string | undefined>;
  held(emulator: EmulatorProcess, ids: readonly string[]): Promise<string[]>;
}

async function send(emulator: EmulatorProcess, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(emulator.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${emulator.apiKey}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** A record added by POST; its id is `field` of the answer, or `id` itself when the answer names none. */
const posted = (path: string, body: (i: number) => unknown, field: string | ((i: number) => string)) => async (emulator: EmulatorProcess, i: number) => {
  const answer = await send(emulator, 'POST', path, body(i));
  if (answer.status >= 300) return undefined;
  return typeof field === 'string' ? String(answer.body[field]) : field(i);
};

/** The ids that answer 200 when looked up one by one. */
const lookedUp = (path: (id: string) => string) => async (emulator: EmulatorProcess, ids: readonly string[]) => {
  const found = await Promise.all(ids.map(async (id) => ((await send(emulator, 'GET', path(id))).status === 200 ? id : undefined)));
  return found.filter((id): id is string => id !== undefined);
};

/** The ids a listing holds, each record's `key`. */
const listed = (path: string, list: string, key: (record: Record<string, unknown>) => unknown) => async (emulator: EmulatorProcess) => {
  const answer = await send(emulator, 'GET', path);
  return ((answer.body[list] ?? []) as Array<Record<string, unknown>>).map((record) => String(key(record)));
};

const STORES: readonly Store[] = [
  { name: 'objects (data add)', add: posted('/v1/data/crash', (i) => ({ data: [{ id: `o${i}`, title: `object ${i}` }] }), (i) => `o${i}`), held: listed('/_emulator/data/crash', 'objects', (o) => o.id) },
  { name: 'data requests (data import)', add: posted('/v1/data/crash/import', () => undefined, 'requestId'), held: lookedUp((id) => `/v1/data/crash/requests/${id}`) },
  {
    name: 'stream parts',
    add: posted('/v1/streams/crash/parts', (i) => ({ id: 's', data: [{ type: 'transcript', text: `p${i}`, speaker: 'host', timestamp: AT }] }), (i) => `p${i}`),
    held: listed('/_emulator/streams/crash/s', 'parts', (part) => part.text),
  },
  {
    name: 'events',
    add: posted('/v1/async/events', (i) => ({ type: 'create_account', event_name: 'signup', timestamp: AT, user_id: `u${i}` }), (i) => `u${i}`),
    held: listed('/_emulator/events?limit=1000', 'events', (entry) => (entry.event as Record<string, unknown>).user_id),
  },
  { name: 'decisions', add: posted('/v1/decisions', () => ({ type: 'text', content: { text: 'see you' } }), 'decision_id'), held: lookedUp((id) => `/v1/decisions/${id}`) },
  { name: 'older imports', add: posted('/v1/import', () => undefined, 'import_id'), held: lookedUp((id) => `/v1/import/${id}`) },
  { name: 'batches', add: posted('/v1/batches', () => ({ type: 'text' }), 'batch_id'), held: lookedUp((id) => `/v1/batches/${id}`) },
  {
    name: 'deletion requests',
    add: posted('/v1/deletion_requests', (i) => ({ subject_user_id: `s${i}`, requested_at: AT }), (i) => `s${i}`),
    held: listed('/_emulator/deletion_requests?limit=1000', 'deletion_requests', (request) => request.subject_user_id),
  },
  {
    name: 'agent decisions',
    add: posted('/v1/agent_decisions', (i) => ({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: `r${i}` }), (i) => `r${i}`),
    held: listed('/_emulator/agent_decisions?limit=1000', 'agent_decisions', (verdict) => verdict.reference_id),
  },
  { name: 'webhook endpoints', add: posted('/_emulator/webhooks/endpoints', () => ({ url: 'http://127.0.0.1:9/hook' }), 'endpoint_id'), held: listed('/_emulator/webhooks/endpoints', 'endpoints', (endpoint) => endpoint.endpoint_id) },
  // Queued only for an endpoint: the one made by the first trigger's setup below is kept on disk too.
  {
    name: 'webhook deliveries',
    add: async (emulator, i) => {
      if (i === 0) await send(emulator, 'POST', '/_emulator/webhooks/endpoints', { url: 'http://127.0.0.1:9/hook' });
      return posted('/_emulator/webhooks/trigger', () => ({ type: 'workflow.failed' }), 'webhook_id')(emulator, i);
    },
    held: listed('/_emulator/webhooks?limit=1000', 'deliveries', (delivery) => delivery.webhook_id),
  },
];

/** Every listing the emulator has: each must answer JSON after a crash, whatever it holds. */
const INSPECTION_ROUTES = [
  '/_emulator/health',
  '/_emulator/requests',
  '/_emulator/data/crash',
  '/_emulator/streams/crash',
  '/_emulator/streams/crash/s',
  '/_emulator/events',
  '/_emulator/deletion_requests',
  '/_emulator/agent_decisions',
  '/_emulator/webhooks',
  '/_emulator/webhooks/endpoints',
];

/**
 * Adds records with WRITERS requests in flight until `killAt` are acknowledged, then kills the
 * emulator mid-stream: the ids acknowledged before the kill.
 */
async function addUntilKilled(emulator: EmulatorProcess, store: Store, killAt: number): Promise<string[]> {
  const acknowledged: string[] = [];
  let next = 0;
  let killed = false;
  const exited = new Promise((resolve) => emulator.child.once('exit', resolve));
  const writer = async () => {
    while (!killed) {
      const id = await store.add(emulator, next++).catch(() => undefined);
      if (id === undefined || killed) continue;
      acknowledged.push(id);
      if (acknowledged.length >= killAt) {
        killed = true;
        emulator.child.kill('SIGKILL');
      }
    }
  };
  // A store whose adds all fail would never reach killAt: the deadline names it.
  await withDeadline(Promise.all(Array.from({ length: WRITERS }, writer)), 30_000, `${killAt} records acknowledged by ${store.name}`);
  await withDeadline(exited, 10_000, 'the killed emulator to exit');
  return acknowledged;
}

// Each store has its own emulator and data directory: four at a time.
describe('the emulator killed mid-append, then started again on the same --data-dir', { concurrency: 4 }, () => {
  const random = mulberry32(SEED);
  const plans = STORES.map((store) => ({ store, killPoints: Array.from({ length: ROUNDS }, () => 5 + Math.floor(random() * 36)) }));

  for (const { store, killPoints } of plans) {
    it(`${store.name}: every acknowledged record is there after SIGKILL after ${killPoints.join(', ')} (seed ${SEED})`, async () => {
      const dataDir = tempDir('csafe-emulator-data-');
      const args = ['--data-dir', dataDir, '--processing-delay', '0', '--webhook-retry-delays', '1h'];
      const acknowledged: string[] = [];
      for (const killAt of killPoints) {
        const emulator = await startEmulatorProcess(args);
        acknowledged.push(...(await addUntilKilled(emulator, store, killAt)));
      }
      const restarted = await startEmulatorProcess(args);
      try {
        const held = new Set(await store.held(restarted, acknowledged));
        assert.deepEqual(acknowledged.filter((id) => !held.has(id)), [], `acknowledged by ${store.name} but gone after the restart`);
        for (const route of INSPECTION_ROUTES) {
          const response = await fetch(restarted.baseUrl + route, { headers: { authorization: `Bearer ${restarted.apiKey}` } });
          const text = await response.text();
          assert.ok(response.status < 500, `${route} answers ${response.status}: ${text.slice(0, 200)}`);
          assert.doesNotThrow(() => JSON.parse(text), `${route} answers JSON`);
        }
        assert.notEqual(await store.add(restarted, 1_000_000), undefined, `${store.name} takes a new record after the restart`);
      } finally {
        await restarted.stop();
      }
    });
  }
});
