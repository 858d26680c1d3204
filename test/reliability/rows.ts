import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// The rows of the fault matrix (test/reliability/README.md): every command that talks to the
// service, each with the request the faults are aimed at, what it must prepare first, and, for the
// commands that send records, how to find each record again (delivered, failed or unconfirmed).

/** A request as the emulator's fault script matches it (its path pattern has `:name` segments). */
export interface Aim {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
}

/** What one cell of the matrix has to work with: its emulator (reset) and a directory of its own. */
export interface Cell {
  emulator: EmulatorProcess;
  dir: string;
  /** Ids the row's setup made (a request, a decision, a batch …). */
  ids: Record<string, string>;
}

/** How a command that sends records is checked: every record is delivered once, or in its failed or unconfirmed file. */
export interface Records {
  /** Each record's key, in input order. */
  keys: readonly string[];
  /** The key of each record the service holds (a key twice means it was applied twice). */
  delivered(cell: Cell, stdout: string): Promise<string[]>;
  /** The key of a record as written back to a failed or unconfirmed file. */
  keyOf(record: Record<string, unknown>): string;
  /**
   * The service applies a record sent twice once (objects upserted by id, events with their
   * idempotency key, deletion requests with their external id): a record both delivered and in
   * the failed file is then no harm, as resending it changes nothing.
   */
  appliedOnce?: true;
}

export interface Row {
  /** As the matrix shows it. */
  name: string;
  /** The request the faults of the service are aimed at. */
  aim: Aim;
  /** The object-store upload a command makes (the upload columns apply). */
  upload?: Aim;
  /** The object-store download a command makes (the download column applies). */
  download?: Aim;
  /** The aimed request creates something the service would hold twice if it were sent twice. */
  creates?: true;
  /** The aimed request is one of the emulator's own (/_emulator/webhooks), which its request log does not keep: its tries cannot be counted. */
  unlogged?: true;
  /** How many aimed requests pass before the key is refused (the key refused mid-run). */
  refusedAfter?: number;
  setup?(cell: Cell): Promise<void>;
  args(cell: Cell): string[];
  /** Standard input, when the command reads it. */
  input?: string;
  /**
   * A server, which runs until it is stopped: resolves when it has done its work (or `ended`, the
   * run's end, came first), and the cell then stops it as Ctrl-C would. A stop is its success (0).
   */
  serveUntil?(cell: Cell, ended: Promise<unknown>): Promise<void>;
  /** For a server stopped after its work: whether what it printed shows that work done exactly once. */
  servedOnce?(stdout: string): boolean;
  records?: Records;
}

type Listing<K extends string> = Record<K, Array<Record<string, unknown>>>;
const control = async <T>(cell: Cell, path: string) => (await cell.emulator.control(path)) as T;
const file = (cell: Cell, name: string, lines: readonly unknown[]) => {
  const path = join(cell.dir, name);
  writeFileSync(path, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return path;
};
const ndjson = (text: string) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
/** The failed and unconfirmed files a bulk command writes, inside the cell's directory. */
export const failedFile = (cell: Cell) => join(cell.dir, 'failed.jsonl');
export const unconfirmedFile = (cell: Cell) => join(cell.dir, 'unconfirmed.jsonl');
const failed = (cell: Cell) => ['--failed', failedFile(cell)];
const unconfirmed = (cell: Cell) => ['--unconfirmed', unconfirmedFile(cell)];
/** One record a request, one request at a time: which record a fault meets, and how many are in flight, are then the same on every run. */
const oneByOne = ['--concurrency', '1', '--batch-size', '1'];
/** stream parts sends one stream's parts in order, one request at a time, whatever the flags. */
const onePartARequest = ['--batch-size', '1'];

/**
 * A setup step run as a user would, before any fault is placed; its JSON answer's `field`. What a
 * row then waits for has ended already (the setup waited), so the wait looks once on every run.
 */
async function made(cell: Cell, args: string[], field: string): Promise<string> {
  const result = await runInProcess([...args, '--json'], { env: cell.emulator.env });
  if (result.code !== 0) throw new Error(`setup: csafe ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  const answer = JSON.parse(result.stdout) as Record<string, unknown> | Array<Record<string, unknown>>;
  return String((Array.isArray(answer) ? answer[0] : answer)?.[field]);
}

const ITEMS = ['c1', 'c2', 'c3'].map((id, index) => ({ text: `item ${index}`, content_id: id }));
const OBJECTS = ['o1', 'o2', 'o3'].map((id) => ({ id, title: `listing ${id}` }));
const EVENTS = ['u1', 'u2', 'u3'].map((user) => ({ type: 'create_account', event_name: 'signup', timestamp: '2026-11-27T10:00:00Z', user_id: user }));
const PARTS = ['p1', 'p2', 'p3'].map((text, index) => ({ type: 'transcript', text, speaker: 'host', timestamp: `2026-11-21T10:00:0${index}Z` }));
const VERDICTS = ['r1', 'r2', 'r3'].map((reference) => ({ content_type: 'listings', decision: 'match', policy_id: 'spam', reference_id: reference, agent_type: 'policy_expert' }));
const ERASURES = ['s1', 's2', 's3'].map((subject) => ({ subject_user_id: subject, requested_at: '2026-11-27T10:00:00Z' }));
const RECORDS = ['m1', 'm2'].map((id) => ({ type: 'text', data: { id, text: `message ${id}` } }));
const REVIEWS = ['Content,source', 'Great bike,app', 'Free money,web'];

const byKey = (field: string) => (record: Record<string, unknown>) => String(record[field]);

const classifyBatchRecords: Records = {
  keys: ITEMS.map((item) => item.content_id),
  delivered: async (_cell, stdout) => ndjson(stdout).map((result) => ITEMS[Number(result.line) - 1]!.content_id),
  keyOf: byKey('content_id'),
};

const streamParts = (args: (cell: Cell) => string[], input?: string): Pick<Row, 'aim' | 'args' | 'records' | 'input' | 'refusedAfter'> => ({
  aim: { method: 'POST', path: '/v1/streams/:namespace/parts' },
  refusedAfter: 1,
  args,
  ...(input !== undefined && { input }),
  records: {
    keys: PARTS.map((part) => part.text),
    // A stream that never got a part is a 404 without a parts list.
    delivered: async (cell) => ((await control<{ parts?: Array<{ text: string }> }>(cell, '/_emulator/streams/live/show-1')).parts ?? []).map((part) => part.text),
    keyOf: byKey('text'),
  },
});

export const ROWS: readonly Row[] = [
  {
    name: 'classify',
    aim: { method: 'POST', path: '/v1/content' },
    args: () => ['classify', '--text', 'hello', '--user-id', 'u1', '--json'],
  },
  {
    name: 'classify --each',
    aim: { method: 'POST', path: '/v1/content' },
    refusedAfter: 1,
    args: (cell) => ['classify', '--each', file(cell, 'a.txt', ['first post']), file(cell, 'b.txt', ['second post']), '--user-id', 'u1', '--json'],
  },
  {
    name: 'classify --batch',
    aim: { method: 'POST', path: '/v1/content' },
    refusedAfter: 1,
    args: (cell) => ['classify', '--batch', file(cell, 'items.jsonl', ITEMS), '--user-id', 'u1', '--concurrency', '1', ...failed(cell)],
    records: classifyBatchRecords,
  },
  {
    name: 'settings put',
    aim: { method: 'PUT', path: '/v1/data/:namespace/settings' },
    args: () => ['settings', 'put', 'listings', '--field', 'title::title', '--json'],
  },
  {
    name: 'data add',
    aim: { method: 'POST', path: '/v1/data/:namespace' },
    refusedAfter: 1,
    args: (cell) => ['data', 'add', 'listings', file(cell, 'objects.jsonl', OBJECTS), ...oneByOne, ...failed(cell)],
    records: {
      keys: OBJECTS.map((object) => object.id),
      delivered: async (cell) => (await control<Listing<'objects'>>(cell, '/_emulator/data/listings')).objects.map(byKey('id')),
      keyOf: byKey('id'),
      appliedOnce: true,
    },
  },
  {
    name: 'data import --wait',
    aim: { method: 'POST', path: '/v1/data/:namespace/import' },
    upload: { method: 'PUT', path: '/_storage/imports/:namespace/:file' },
    args: (cell) => ['data', 'import', 'listings', file(cell, 'objects.jsonl', OBJECTS), '--wait', '--json'],
  },
  {
    name: 'data status',
    aim: { method: 'GET', path: '/v1/data/:namespace/requests/:requestId' },
    setup: async (cell) => void (cell.ids.request = await made(cell, ['data', 'add', 'listings', file(cell, 'objects.jsonl', OBJECTS)], 'request_id')),
    args: (cell) => ['data', 'status', 'listings', cell.ids.request!, '--json'],
  },
  {
    name: 'data download',
    aim: { method: 'GET', path: '/v1/data/:namespace/requests/:requestId/results/download-url' },
    download: { method: 'GET', path: '/_storage/outputs/:file' },
    setup: async (cell) => void (cell.ids.request = await made(cell, ['data', 'add', 'listings', file(cell, 'objects.jsonl', OBJECTS)], 'request_id')),
    args: (cell) => ['data', 'download', 'listings', cell.ids.request!, join(cell.dir, 'labelled.jsonl')],
  },
  {
    name: 'events send',
    aim: { method: 'POST', path: '/v1/async/events' },
    refusedAfter: 1,
    args: (cell) => ['events', 'send', file(cell, 'events.jsonl', EVENTS), ...oneByOne, ...failed(cell), ...unconfirmed(cell)],
    records: eventRecords(),
  },
  {
    name: 'events send --sync',
    aim: { method: 'POST', path: '/v1/events' },
    refusedAfter: 1,
    args: (cell) => ['events', 'send', '--sync', file(cell, 'events.jsonl', EVENTS), ...oneByOne, ...failed(cell), ...unconfirmed(cell)],
    records: eventRecords(),
  },
  {
    name: 'stream watch',
    aim: { method: 'POST', path: '/v1/streams/:namespace' },
    args: () => ['stream', 'watch', 'live', '--id', 'show-1', '--url', 'https://example.com/live/1.m3u8', '--json'],
  },
  { name: 'stream parts', ...streamParts((cell) => ['stream', 'parts', 'live', '--id', 'show-1', file(cell, 'parts.jsonl', PARTS), ...onePartARequest, ...failed(cell), ...unconfirmed(cell), '--json']) },
  {
    name: 'stream parts --follow',
    ...streamParts((cell) => ['stream', 'parts', 'live', '--id', 'show-1', '--follow', '--flush-interval', '50ms', ...onePartARequest, ...failed(cell), ...unconfirmed(cell), '--json'], PARTS.map((part) => JSON.stringify(part)).join('\n') + '\n'),
  },
  {
    name: 'token create',
    aim: { method: 'POST', path: '/v1/access_tokens' },
    args: () => ['token', 'create', '--expires-in', '900', '--user-id', 'u1', '--json'],
  },
  {
    name: 'decision create --wait',
    aim: { method: 'POST', path: '/v1/decisions' },
    creates: true,
    args: () => ['decision', 'create', '--type', 'text', '--content', '{"text":"see you"}', '--wait', '--json'],
  },
  {
    name: 'decision get --wait',
    aim: { method: 'GET', path: '/v1/decisions/:decisionId' },
    setup: async (cell) => void (cell.ids.decision = await made(cell, ['decision', 'create', '--type', 'text', '--content', '{"text":"hi"}', '--wait'], 'decision_id')),
    args: (cell) => ['decision', 'get', cell.ids.decision!, '--wait', '--json'],
  },
  {
    name: 'import create --wait',
    aim: { method: 'POST', path: '/v1/import' },
    creates: true,
    upload: { method: 'PUT', path: '/_storage/older-imports/:file' },
    args: (cell) => ['import', 'create', file(cell, 'records.jsonl', RECORDS), '--wait', '--json'],
  },
  {
    name: 'import get --wait',
    aim: { method: 'GET', path: '/v1/import/:importId' },
    setup: async (cell) => void (cell.ids.import = await made(cell, ['import', 'create', file(cell, 'records.jsonl', RECORDS), '--wait'], 'import_id')),
    args: (cell) => ['import', 'get', cell.ids.import!, '--wait', '--json'],
  },
  {
    name: 'batch create --wait --download',
    aim: { method: 'POST', path: '/v1/batches' },
    creates: true,
    upload: { method: 'PUT', path: '/_storage/batches/:file' },
    download: { method: 'GET', path: '/_storage/batch-results/:file' },
    args: (cell) => ['batch', 'create', '--type', 'text', file(cell, 'reviews.csv', REVIEWS), '--wait', '--download', join(cell.dir, 'results.csv'), '--json'],
  },
  {
    name: 'batch get --wait',
    aim: { method: 'GET', path: '/v1/batches/:batchId' },
    setup: async (cell) => void (cell.ids.batch = await made(cell, ['batch', 'create', '--type', 'text', file(cell, 'reviews.csv', REVIEWS), '--wait'], 'batch_id')),
    args: (cell) => ['batch', 'get', cell.ids.batch!, '--wait', '--json'],
  },
  {
    name: 'batch download',
    aim: { method: 'GET', path: '/v1/batches/:batchId' },
    download: { method: 'GET', path: '/_storage/batch-results/:file' },
    setup: async (cell) => void (cell.ids.batch = await made(cell, ['batch', 'create', '--type', 'text', file(cell, 'reviews.csv', REVIEWS), '--wait'], 'batch_id')),
    args: (cell) => ['batch', 'download', cell.ids.batch!, join(cell.dir, 'results.csv')],
  },
  {
    name: 'agent-decision create',
    aim: { method: 'POST', path: '/v1/agent_decisions' },
    creates: true,
    args: () => ['agent-decision', 'create', '--content-type', 'listings', '--decision', 'match', '--policy-id', 'spam', '--reference-id', 'r1', '--json'],
  },
  {
    name: 'agent-decision send',
    aim: { method: 'POST', path: '/v1/agent_decisions' },
    refusedAfter: 1,
    args: (cell) => ['agent-decision', 'send', file(cell, 'verdicts.jsonl', VERDICTS), '--concurrency', '1', ...failed(cell), ...unconfirmed(cell), '--json'],
    records: {
      keys: VERDICTS.map((verdict) => verdict.reference_id),
      delivered: async (cell) => (await control<Listing<'agent_decisions'>>(cell, '/_emulator/agent_decisions')).agent_decisions.map(byKey('reference_id')),
      keyOf: byKey('reference_id'),
    },
  },
  {
    name: 'deletion-request create',
    aim: { method: 'POST', path: '/v1/deletion_requests' },
    creates: true,
    args: () => ['deletion-request', 'create', '--subject-user-id', 'u42', '--json'],
  },
  {
    name: 'deletion-request send',
    aim: { method: 'POST', path: '/v1/deletion_requests' },
    refusedAfter: 1,
    args: (cell) => ['deletion-request', 'send', file(cell, 'erasures.jsonl', ERASURES), '--concurrency', '1', ...failed(cell), '--json'],
    records: {
      keys: ERASURES.map((erasure) => erasure.subject_user_id),
      delivered: async (cell) => (await control<Listing<'deletion_requests'>>(cell, '/_emulator/deletion_requests')).deletion_requests.map(byKey('subject_user_id')),
      keyOf: byKey('subject_user_id'),
      appliedOnce: true,
    },
  },
  {
    name: 'webhooks listen',
    aim: { method: 'POST', path: '/_emulator/webhooks/endpoints' },
    unlogged: true,
    args: () => ['webhooks', 'listen'],
    serveUntil: async (cell, ended) => {
      const leases = async () => (await control<{ endpoints: Array<{ expires_at: string }> }>(cell, '/_emulator/webhooks/endpoints')).endpoints.map((endpoint) => endpoint.expires_at);
      // Renewed once: the listener has its registration (a lost answer is looked up first) and is listening.
      let first: string | undefined;
      const renewed = await until(ended, async () => {
        first ??= (await leases())[0];
        return first !== undefined && (await leases()).some((expiry) => expiry !== first);
      });
      if (!renewed) return;
      await cell.emulator.control('/_emulator/webhooks/trigger', { method: 'POST', body: { type: 'workflow.failed', id: 'listing-9' } });
      await until(ended, async () => (await control<{ deliveries: Array<{ state: string }> }>(cell, '/_emulator/webhooks')).deliveries.some((delivery) => delivery.state === 'delivered'));
    },
    // Its stdout a pipe: one JSON line a notification.
    servedOnce: (stdout) => ndjson(stdout).filter((notification) => notification.type === 'workflow.failed').length === 1,
  },
  {
    name: 'webhooks trigger',
    aim: { method: 'POST', path: '/_emulator/webhooks/trigger' },
    unlogged: true,
    args: () => ['webhooks', 'trigger', 'workflow.failed', '--id', 'listing-9', '--json'],
  },
];

/** Polls `probe` until it holds (true), or the run has ended or 20 s have passed (false). */
async function until(ended: Promise<unknown>, probe: () => Promise<boolean>): Promise<boolean> {
  let over = false;
  void ended.finally(() => (over = true));
  for (const deadline = Date.now() + 20_000; !over && Date.now() < deadline; await delay(25)) {
    if (await probe()) return true;
  }
  return false;
}

function eventRecords(): Records {
  return {
    keys: EVENTS.map((event) => event.user_id),
    delivered: async (cell) => (await control<{ events: Array<{ event: { user_id: string } }> }>(cell, '/_emulator/events')).events.map((entry) => entry.event.user_id),
    keyOf: byKey('user_id'),
    appliedOnce: true,
  };
}
