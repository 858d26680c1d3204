import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DeliveryLog, type Delivery } from '../../src/emulator/webhooks/delivery-log.js';
import { Webhooks, type DeliverySettings } from '../../src/emulator/webhooks/deliveries.js';
import { postOnce } from '../../src/emulator/webhooks/post.js';
import { tempDir } from '../helpers/cli.js';
import { closeServer, listenOnLoopback, webhookReceiver } from '../helpers/server.js';

// Races of the webhook deliveries: resets, stops and restarts while writes, attempts and leases are under way.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const settings = (initialUrls: string[], more: Partial<DeliverySettings> = {}): DeliverySettings => ({ secret: SECRET, retryDelaysMs: [], attemptTimeoutMs: 5_000, initialUrls, now: Date.now, ...more });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = new AbortController().signal;

function pendingDelivery(log: DeliveryLog, n: number): Delivery {
  return { delivery_id: log.newId(), webhook_id: `msg_${n}`, type: 'batch.completed', endpoint_id: 'ep_1', url: 'http://127.0.0.1:9/', payload: '{}', state: 'pending', attempts: [], next_attempt_at: null, created_at: '2026-11-27T00:00:00.000Z' };
}

describe('webhook delivery races', () => {
  it('emit() waits for its own line, not for a log kept busy by a burst of other deliveries', async () => {
    const hooks = await webhookReceiver();
    const webhooks = await Webhooks.open(tempDir(), settings([hooks.url]));
    try {
      for (let n = 0; n < 20_000; n++) webhooks.notify('batch.completed', { n });
      await sleep(300);
      const started = Date.now();
      await webhooks.emit('batch.completed', { during: 'the burst' });
      assert.ok(Date.now() - started < 1_500, `emit() took ${Date.now() - started} ms`);
    } finally {
      await webhooks.close();
      hooks.close();
    }
  });

  it('a delivery put while a reset empties the log, once written(), is on disk', async () => {
    const path = join(tempDir(), 'deliveries.jsonl');
    const log = await DeliveryLog.open(path);
    log.put(pendingDelivery(log, 0));
    await log.written();
    const clearing = log.clear();
    await new Promise((resolve) => setImmediate(resolve));
    const after = pendingDelivery(log, 1);
    log.put(after);
    await log.written();
    await clearing;
    assert.deepEqual(log.page(10).records, [after]);
    assert.deepEqual((await DeliveryLog.open(path)).page(10).records, [after]);
  });

  it('an event notified while a reset is under way is not sent to an endpoint the reset removes', async () => {
    const hooks = await webhookReceiver();
    const webhooks = await Webhooks.open(tempDir(), settings([]));
    try {
      await webhooks.addEndpoint(hooks.url, null);
      const resetting = webhooks.clear();
      webhooks.notify('batch.completed', { queued: 'during the reset' });
      await resetting;
      await sleep(300);
      assert.deepEqual(hooks.received, []);
      assert.equal(webhooks.page(10).total, 0);
    } finally {
      await webhooks.close();
      hooks.close();
    }
  });

  it('an endpoint whose lease runs out while the emulator is starting is removed all the same', async () => {
    let stuck = 0;
    for (let margin = 0; margin < 30; margin++) {
      const dir = tempDir();
      mkdirSync(join(dir, 'webhooks'));
      const now = Date.now();
      writeFileSync(join(dir, 'webhooks', 'endpoints.json'), JSON.stringify([{ endpoint_id: 'ep_leased', url: 'http://127.0.0.1:9/', events: null, created_at: new Date(now).toISOString(), lease_seconds: 30, expires_at: new Date(now + margin).toISOString() }]));
      const webhooks = await Webhooks.open(dir, settings([]));
      await sleep(60);
      if (webhooks.listEndpoints().length > 0) stuck++;
      await webhooks.close();
    }
    assert.equal(stuck, 0, `${stuck} endpoints kept after their lease ran out`);
  });

  it('a stop while an attempt waits out an injected delay ends at once', async () => {
    const server = createServer(() => undefined);
    const url = await listenOnLoopback(server);
    const webhooks = await Webhooks.open(tempDir(), settings([url], { attemptTimeoutMs: 10_000, faults: { rate: 1, kinds: ['delay'], delayMs: 60_000, seed: 1 } }));
    await webhooks.emit('batch.completed', {});
    await sleep(100);
    const started = Date.now();
    await webhooks.close();
    server.closeAllConnections();
    closeServer(server);
    assert.ok(Date.now() - started < 2_000, `close() took ${Date.now() - started} ms`);
  });

  it('a reset ends the attempts in flight: receivers that hang hold none of the 32 slots after it', async () => {
    const hanging = createServer(() => undefined);
    const url = await listenOnLoopback(hanging);
    const webhooks = await Webhooks.open(tempDir(), settings([], { attemptTimeoutMs: 60_000 }));
    let seen = 0;
    hanging.on('request', () => seen++);
    const until = async (count: number) => {
      for (const deadline = Date.now() + 5_000; seen < count && Date.now() < deadline; ) await sleep(20);
    };
    try {
      // Four endpoints of eight slots each: all 32 attempts in flight, held by receivers that never answer.
      for (let n = 0; n < 4; n++) await webhooks.addEndpoint(`${url}/${n}`, null);
      for (let n = 0; n < 8; n++) webhooks.notify('batch.completed', { n });
      await until(32);
      assert.equal(seen, 32);
      await webhooks.clear();
      await webhooks.addEndpoint(url, null);
      for (let n = 0; n < 8; n++) webhooks.notify('batch.completed', { n });
      await until(40);
      assert.equal(seen, 40, 'the slots were freed by the reset, not after the 60 s timeout');
    } finally {
      await webhooks.close();
      hanging.closeAllConnections();
      closeServer(hanging);
    }
  });

  it('endpoints added at once are all in the file once acknowledged', async () => {
    const dir = tempDir();
    const webhooks = await Webhooks.open(dir, settings([]));
    try {
      for (let round = 0; round < 10; round++) {
        await Promise.all(Array.from({ length: 20 }, (_, n) => webhooks.addEndpoint(`http://127.0.0.1:9/${round}/${n}`, null)));
        const saved = JSON.parse(readFileSync(join(dir, 'webhooks', 'endpoints.json'), 'utf8')) as unknown[];
        assert.equal(saved.length, webhooks.listEndpoints().length, `round ${round}`);
      }
    } finally {
      await webhooks.close();
    }
  });

  it('two emulators on one data directory: an endpoint either adds or removes stays so in the file', async () => {
    const dir = tempDir();
    const urls = async () => {
      const next = await Webhooks.open(dir, settings([]));
      await next.close();
      return next.listEndpoints().map((endpoint) => endpoint.url).sort();
    };
    const first = await Webhooks.open(dir, settings([]));
    const shared = await first.addEndpoint('http://127.0.0.1:9/shared', null);
    const second = await Webhooks.open(dir, settings([]));
    try {
      await first.addEndpoint('http://127.0.0.1:9/first', null);
      await second.addEndpoint('http://127.0.0.1:9/second', null);
      assert.deepEqual(await urls(), ['http://127.0.0.1:9/first', 'http://127.0.0.1:9/second', 'http://127.0.0.1:9/shared']);
      assert.equal(await second.removeEndpoint(shared.endpoint_id), true);
      await first.addEndpoint('http://127.0.0.1:9/first-again', null);
      assert.deepEqual(await urls(), ['http://127.0.0.1:9/first', 'http://127.0.0.1:9/first-again', 'http://127.0.0.1:9/second']);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('an attempt on a kept-alive connection the receiver closes just then is made again on a new one', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end(() => setTimeout(() => req.socket.destroy(), 100)));
    });
    const url = await listenOnLoopback(server);
    const failures: string[] = [];
    for (let n = 0; n < 20; n++) {
      await postOnce({ url, headers: {}, body: '{}', timeoutMs: 2_000, answerBytes: 200, signal: never });
      await sleep(100);
      const outcome = await postOnce({ url, headers: {}, body: '{}', timeoutMs: 2_000, answerBytes: 200, signal: never });
      if (!('status' in outcome) || outcome.status !== 204) failures.push(outcome.error ?? '');
    }
    closeServer(server);
    assert.deepEqual(failures, []);
  });

  it('a 2xx whose body does not end within the timeout is a success, not "no answer"', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).write('ok'));
    });
    const url = await listenOnLoopback(server);
    const outcome = await postOnce({ url, headers: {}, body: '{}', timeoutMs: 300, answerBytes: 200, signal: never });
    server.closeAllConnections();
    closeServer(server);
    assert.deepEqual(outcome, { status: 200 });
  });
});
