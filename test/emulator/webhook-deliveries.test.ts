import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DeliveryLog, MAX_FINISHED, type Delivery } from '../../src/emulator/webhooks/delivery-log.js';
import { Webhooks, type DeliverySettings } from '../../src/emulator/webhooks/deliveries.js';
import { tempDir } from '../helpers/cli.js';
import { webhookReceiver } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';
import { assertError, call, useTestEmulator } from './support.js';

// The webhook deliveries in process: the log that keeps them across restarts, and the sender
// that queues, sends and retries them (end to end, through the emulator, in test/e2e/webhooks).

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function delivery(log: DeliveryLog, state: Delivery['state'] = 'pending', n = 0): Delivery {
  return {
    delivery_id: log.newId(),
    webhook_id: `msg_${n}`,
    type: 'workflow.succeeded',
    endpoint_id: 'ep_1',
    url: 'http://127.0.0.1:9/hooks',
    payload: JSON.stringify({ n }),
    state,
    attempts: [],
    next_attempt_at: state === 'pending' ? '2026-11-27T00:00:00.000Z' : null,
    created_at: '2026-11-27T00:00:00.000Z',
  };
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
const allOf = (log: DeliveryLog) => log.page(100_000).records;

describe('the delivery log', () => {
  it('is read back as it was written: each delivery in the order queued, as it last stood', async () => {
    const path = join(tempDir(), 'deliveries.jsonl');
    const log = await DeliveryLog.open(path);
    const first = delivery(log, 'pending', 1);
    const second = delivery(log, 'pending', 2);
    log.put(first);
    log.put(second);
    await log.written();
    first.attempts.push({ at: '2026-11-27T00:00:01.000Z', status: 204, duration_ms: 3 });
    first.state = 'delivered';
    first.next_attempt_at = null;
    log.put(first);
    await log.written();
    const again = await DeliveryLog.open(path);
    assert.deepEqual(allOf(again), [first, second]);
    assert.deepEqual([...again.pending()].map((pending) => pending.delivery_id), [second.delivery_id]);
  });

  it('cuts off a half line a killed emulator left, and refuses a whole line that is not a delivery, naming the file and line', async () => {
    const path = join(tempDir(), 'deliveries.jsonl');
    const log = await DeliveryLog.open(path);
    const kept = delivery(log);
    log.put(kept);
    await log.written();
    appendFileSync(path, '{"delivery_id":"dlv_half');
    const reopened = await DeliveryLog.open(path);
    assert.deepEqual(allOf(reopened), [kept]);
    reopened.put(delivery(reopened));
    await reopened.written();
    assert.equal((await DeliveryLog.open(path)).size, 2, 'the next line was not glued onto the half one');

    appendFileSync(path, '{"not":"a delivery"}\n');
    await assert.rejects(DeliveryLog.open(path), (error: Error) => error.message.includes(`${path} line 3: expected a webhook delivery`));
  });

  it(`keeps the latest ${MAX_FINISHED.toLocaleString('en')} finished deliveries and every pending one, in memory and after a restart`, async () => {
    const path = join(tempDir(), 'deliveries.jsonl');
    const log = await DeliveryLog.open(path);
    const pending = delivery(log, 'pending', -1);
    log.put(pending);
    const finished = Array.from({ length: MAX_FINISHED + 5 }, (_, n) => delivery(log, n % 2 === 0 ? 'delivered' : 'failed', n));
    for (const each of finished) log.put(each);
    await log.written();
    const kept = [pending, ...finished.slice(5)].map((each) => each.delivery_id);
    assert.deepEqual(allOf(log).map((each) => each.delivery_id), kept);
    assert.deepEqual(allOf(await DeliveryLog.open(path)).map((each) => each.delivery_id), kept);
  });

  it('is written anew when it holds far more lines than deliveries, and still reads back the latest of each', async () => {
    const path = join(tempDir(), 'deliveries.jsonl');
    const log = await DeliveryLog.open(path);
    const waiting = Array.from({ length: 100 }, (_, n) => delivery(log, 'pending', n));
    for (let round = 0; round < 400; round++) {
      for (const each of waiting) {
        each.attempts = [{ at: '2026-11-27T00:00:01.000Z', error: `round ${round}`, duration_ms: 1 }];
        log.put(each);
      }
      await log.written();
    }
    assert.ok(lines(path) <= 2 * waiting.length + 20_000 + waiting.length, `${lines(path)} lines for ${waiting.length} deliveries`);
    assert.ok(lines(path) < 400 * waiting.length);
    const again = await DeliveryLog.open(path);
    assert.deepEqual(allOf(again), waiting);
    assert.ok(allOf(again).every((each) => each.attempts[0]!.error === 'round 399'));
  });

  it('pages in the order queued; an `after` since forgotten resumes where it stood', async () => {
    const log = await DeliveryLog.open(join(tempDir(), 'deliveries.jsonl'));
    const all = Array.from({ length: 5 }, (_, n) => delivery(log, 'pending', n));
    for (const each of all) log.put(each);
    const first = log.page(2);
    assert.deepEqual(first.records, all.slice(0, 2));
    assert.equal(first.total, 5);
    assert.equal(first.next, all[1]!.delivery_id);
    assert.deepEqual(log.page(2, first.next!).records, all.slice(2, 4));
    assert.equal(log.page(2, all[3]!.delivery_id).next, null);
    const forgotten = `${all[2]!.delivery_id.slice(0, -1)}${all[2]!.delivery_id.endsWith('0') ? '1' : '0'}`;
    assert.deepEqual(
      log.page(5, forgotten).records.map((each) => each.delivery_id),
      all.filter((each) => each.delivery_id > forgotten).map((each) => each.delivery_id),
    );
    await log.written();
  });

  it('a write that failed is made good by the next, which writes the whole log', async () => {
    const dir = join(tempDir(), 'webhooks');
    mkdirSync(dir);
    const path = join(dir, 'deliveries.jsonl');
    const log = await DeliveryLog.open(path);
    const lost = delivery(log, 'pending', 1);
    rmSync(dir, { recursive: true });
    log.put(lost);
    await assert.rejects(log.written(), { code: 'ENOENT' });
    mkdirSync(dir);
    const next = delivery(log, 'pending', 2);
    log.put(next);
    await log.written();
    assert.deepEqual(allOf(await DeliveryLog.open(path)), [lost, next]);
  });

  it('a reset empties it, on disk too', async () => {
    const path = join(tempDir(), 'deliveries.jsonl');
    const log = await DeliveryLog.open(path);
    log.put(delivery(log));
    await log.clear();
    assert.equal(log.size, 0);
    assert.equal((await DeliveryLog.open(path)).size, 0);
  });
});

const settings = (initialUrls: string[], more: Partial<DeliverySettings> = {}): DeliverySettings => ({ secret: SECRET, retryDelaysMs: [50, 50], attemptTimeoutMs: 2_000, initialUrls, now: Date.now, ...more });
const states = (webhooks: Webhooks) => webhooks.page(1000).records.map((each) => each.state);

describe('the webhook sender', () => {
  it('a burst of 3,000 events to a receiver that answers: every one delivered, none dropped', async () => {
    const hooks = await webhookReceiver();
    const webhooks = await Webhooks.open(tempDir(), settings([hooks.url]));
    try {
      for (let n = 0; n < 3000; n++) webhooks.notify('workflow.succeeded', { n });
      await waitFor(() => hooks.received.length >= 3000, { what: '3,000 deliveries' });
      assert.equal(webhooks.dropped, 0);
      assert.deepEqual(new Set(hooks.received.map((body) => (JSON.parse(body) as { n: number }).n)).size, 3000);
      await waitFor(() => webhooks.page(1, undefined).total === 3000 && states(webhooks).every((state) => state === 'delivered'), { what: 'every delivery recorded as delivered' });
    } finally {
      await webhooks.close();
      hooks.close();
    }
  });

  it('a delivery pending at a stop is sent after the next start, under the same webhook-id', async () => {
    const dir = tempDir();
    const hooks = await webhookReceiver({ statuses: [500] });
    let webhooks = await Webhooks.open(dir, settings([hooks.url], { retryDelaysMs: [60_000] }));
    try {
      const { webhook_id: id } = await webhooks.emit('workflow.succeeded', { n: 1 });
      await waitFor(() => webhooks.page(1).records[0]?.attempts.length === 1, { what: 'the first attempt, answered 500' });
      await webhooks.close();
      // Due a minute from now: the next start is told the schedule is shorter, but the due time was saved.
      const saved = readFileSync(join(dir, 'webhooks', 'deliveries.jsonl'), 'utf8').trim().split('\n').at(-1)!;
      const due = JSON.parse(saved) as Delivery;
      writeFileSync(join(dir, 'webhooks', 'deliveries.jsonl'), `${JSON.stringify({ ...due, next_attempt_at: new Date().toISOString() })}\n`);
      webhooks = await Webhooks.open(dir, settings([hooks.url]));
      await waitFor(() => hooks.received.length === 2, { what: 'the second attempt, after the restart' });
      const [record] = webhooks.page(1).records;
      assert.equal(record!.webhook_id, id);
      await waitFor(() => webhooks.page(1).records[0]!.state === 'delivered', { what: 'delivered' });
    } finally {
      await webhooks.close();
      hooks.close();
    }
  });

  it('an endpoint that hangs: its deliveries wait, bounded; removing it cancels them; other endpoints are served meanwhile', async () => {
    const hanging = await webhookReceiver({ hang: true });
    const healthy = await webhookReceiver();
    const webhooks = await Webhooks.open(tempDir(), settings([hanging.url, healthy.url], { attemptTimeoutMs: 60_000 }));
    try {
      for (let n = 0; n < 50; n++) webhooks.notify('workflow.succeeded', { n });
      await waitFor(() => healthy.received.length === 50, { what: 'the 50 deliveries to the endpoint that answers' });
      assert.equal(hanging.received.length, 8, 'eight attempts in flight to the endpoint that hangs, no more');
      const [hangingEndpoint] = webhooks.listEndpoints();
      assert.ok(await webhooks.removeEndpoint(hangingEndpoint!.endpoint_id));
      const toHanging = webhooks.page(1000).records.filter((each) => each.endpoint_id === hangingEndpoint!.endpoint_id);
      assert.equal(toHanging.length, 50);
      assert.ok(toHanging.every((each) => each.state === 'cancelled' && each.next_attempt_at === null));
    } finally {
      await webhooks.close();
      hanging.close();
      healthy.close();
    }
  });

  it('a receiver that fails is retried by the schedule, then the delivery is failed', async () => {
    const hooks = await webhookReceiver({ statuses: [500, 503, 500] });
    const webhooks = await Webhooks.open(tempDir(), settings([hooks.url]));
    try {
      await webhooks.emit('batch.completed', { event_type: 'batch.completed', data: {} });
      await waitFor(() => states(webhooks)[0] === 'failed', { what: 'the delivery failed after three attempts' });
      const [record] = webhooks.page(1).records;
      assert.deepEqual(record!.attempts.map((attempt) => attempt.status), [500, 503, 500]);
      assert.equal(hooks.received.length, 3);
    } finally {
      await webhooks.close();
      hooks.close();
    }
  });
});

describe('the endpoints file', () => {
  it('a file that cannot be read as endpoints is refused at start, naming it, the entry and what to do; never sent to', async () => {
    for (const [text, why] of [
      ['{not json', /not JSON/],
      ['{"url":"http://127.0.0.1:9/"}', /expected a JSON array of endpoints/],
      ['[{"endpoint_id":"ep_1","url":"ftp://example.com/","events":null}]', /\[0\]: expected \{endpoint_id, url \(http or https\), events: null or a list\}/],
    ] as const) {
      const dir = tempDir();
      mkdirSync(join(dir, 'webhooks'));
      writeFileSync(join(dir, 'webhooks', 'endpoints.json'), text);
      await assert.rejects(Webhooks.open(dir, settings([])), (error: Error) => why.test(error.message) && error.message.startsWith(join(dir, 'webhooks', 'endpoints.json')) && /remove the file to start with none/.test(error.message));
    }
  });
});

describe('leased endpoints', () => {
  it('an endpoint whose lease runs out is removed and its waiting deliveries cancelled; a restart drops one that ran out meanwhile (renewal: the routes test below)', async () => {
    const hanging = await webhookReceiver({ hang: true });
    const dir = tempDir();
    let webhooks = await Webhooks.open(dir, settings([], { attemptTimeoutMs: 60_000 }));
    try {
      const addedAt = Date.now();
      const leased = await webhooks.addEndpoint(hanging.url, null, 1);
      assert.equal(leased.lease_seconds, 1);
      const lasting = await webhooks.addEndpoint(hanging.url, ['batch.completed']);
      assert.equal(lasting.expires_at, undefined);
      for (let n = 0; n < 12; n++) webhooks.notify('workflow.succeeded', { n });
      await waitFor(() => webhooks.listEndpoints().length === 1, { what: 'the leased endpoint removed once its lease ran out', timeoutMs: 5_000 });
      assert.ok(Date.now() - addedAt >= 1000 - 5, 'not before its lease ran out');
      assert.deepEqual(webhooks.listEndpoints().map((endpoint) => endpoint.endpoint_id), [lasting.endpoint_id]);
      assert.deepEqual(new Set(states(webhooks)), new Set(['cancelled']), 'its deliveries, waiting or in flight, cancelled');

      const second = await webhooks.addEndpoint(hanging.url, null, 1);
      await webhooks.close();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      webhooks = await Webhooks.open(dir, settings([]));
      assert.deepEqual(webhooks.listEndpoints().map((endpoint) => endpoint.endpoint_id), [lasting.endpoint_id], `${second.endpoint_id} ran out while no emulator ran`);
    } finally {
      await webhooks.close();
      hanging.close();
    }
  });

  describe('the routes', () => {
    const emulator = useTestEmulator();

    it('POST …/endpoints takes lease_seconds from 1 to 86,400; POST …/{id}/lease renews a leased one, 404 for none, 409 for one without a lease', async () => {
      assertError(await call(emulator, 'POST', '/_emulator/webhooks/endpoints', { json: { url: 'http://127.0.0.1:9/', lease_seconds: 0 } }), 400, 'lease_seconds');
      assertError(await call(emulator, 'POST', '/_emulator/webhooks/endpoints', { json: { url: 'http://127.0.0.1:9/', lease_seconds: 1.5 } }), 400, 'lease_seconds');
      const leased = await call(emulator, 'POST', '/_emulator/webhooks/endpoints', { json: { url: 'http://127.0.0.1:9/', lease_seconds: 600 } });
      assert.equal(leased.status, 201);
      const { endpoint_id: id, expires_at: expiresAt } = leased.body as { endpoint_id: string; expires_at: string };
      await new Promise((resolve) => setTimeout(resolve, 20));
      const renewed = await call(emulator, 'POST', `/_emulator/webhooks/endpoints/${id}/lease`);
      assert.equal(renewed.status, 200);
      assert.ok((renewed.body as { expires_at: string }).expires_at > expiresAt);
      assertError(await call(emulator, 'POST', '/_emulator/webhooks/endpoints/ep_0000000000000000/lease'), 404);
      const lasting = (await call(emulator, 'POST', '/_emulator/webhooks/endpoints', { json: { url: 'http://127.0.0.1:9/' } })).body as { endpoint_id: string };
      assert.match(assertError(await call(emulator, 'POST', `/_emulator/webhooks/endpoints/${lasting.endpoint_id}/lease`), 409).message, /no lease to renew/);
    });
  });
});
