import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { EXAMPLES, exitOf, runCsafe, spawnCsafe, startEmulatorProcess, tempDir, withEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { closeServer, listenOnLoopback } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

// The emulator's webhooks, end to end: a receiver of our own on a loopback port, the emulator
// started with --webhook-url, and the deliveries checked with the standardwebhooks package.
// The runs that make the deliveries happen, and the usage errors, are main() in this process; the
// first delivery's run and the `webhooks listen` that serves until Ctrl-C are the real bin/csafe.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver that records every request and answers each with the next status of `statuses` (then 204). */
async function receiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(statuses.shift() ?? 204).end();
    });
  });
  const url = `${await listenOnLoopback(server)}/hooks`;
  return { url, received, close: () => closeServer(server) };
}

/** `csafe webhooks trigger …args` in this process, against the emulator `env` names: it must succeed, else the test fails with what it printed. */
async function trigger(env: Record<string, string>, ...args: string[]): Promise<void> {
  const result = await runInProcess(['webhooks', 'trigger', ...args], { env });
  assert.equal(result.code, 0, result.stderr);
}

const verified = (delivery: Received) => new Webhook(SECRET).verify(delivery.body, delivery.headers as Record<string, string>) as Record<string, unknown>;

describe('emulator webhooks', () => {
  let hooks: Awaited<ReturnType<typeof receiver>>;
  let emulator: EmulatorProcess;
  const dir = tempDir();

  before(async () => {
    hooks = await receiver();
    emulator = await startEmulatorProcess(['--processing-delay', '200ms', '--webhook-url', hooks.url, '--webhook-secret', SECRET, '--webhook-retry-delays', '100ms,100ms,100ms']);
  });
  after(async () => {
    await emulator.stop();
    hooks.close();
  });

  it('three objects added: three workflow.succeeded deliveries, signed so that the standardwebhooks package verifies them', async () => {
    hooks.received.length = 0;
    const added = await runCsafe(['data', 'add', 'listings', join(EXAMPLES, 'listings.jsonl')], { env: emulator.env });
    assert.equal(added.code, 0, added.stderr);
    await waitFor(() => hooks.received.length >= 3, { what: 'three deliveries' });
    const events = hooks.received.map(verified);
    assert.deepEqual(events.map((event) => [event.type, event.namespace, event.id]).sort(), [
      ['workflow.succeeded', 'listings', 'listing-1'],
      ['workflow.succeeded', 'listings', 'listing-2'],
      ['workflow.succeeded', 'listings', 'listing-3'],
    ]);
    const spam = events.find((event) => event.id === 'listing-2')!;
    assert.deepEqual((spam.output as { labels: unknown[] }).labels, [{ label: 'spam', confidence: 'medium' }]);
    assert.match(String(spam.request_id), /^req_/);
    assert.equal(new Set(hooks.received.map((delivery) => delivery.headers['webhook-id'])).size, 3, 'one webhook-id per event');
  });

  it('a namespace import: one workflow event per object, once the import has been processed', async () => {
    hooks.received.length = 0;
    const imported = await runInProcess(['data', 'import', 'catalog', join(EXAMPLES, 'listings.jsonl'), '--wait'], { env: emulator.env });
    assert.equal(imported.code, 0, imported.stderr);
    await waitFor(() => hooks.received.length >= 3, { what: 'three deliveries' });
    assert.deepEqual(hooks.received.map(verified).map((event) => [event.type, event.namespace, event.id]).sort(), [
      ['workflow.succeeded', 'catalog', 'listing-1'],
      ['workflow.succeeded', 'catalog', 'listing-2'],
      ['workflow.succeeded', 'catalog', 'listing-3'],
    ]);
  });

  it('an object that cannot be processed: workflow.failed with its error', async () => {
    hooks.received.length = 0;
    writeFileSync(join(dir, 'schema.json'), '{"photo":{"content_type":"image_url"}}');
    const added = await runInProcess(['data', 'add', 'shop', '-', '--schema', join(dir, 'schema.json')], { env: emulator.env, input: '{"id":"p1","photo":"not a url"}\n' });
    assert.equal(added.code, 0, added.stderr);
    await waitFor(() => hooks.received.length >= 1, { what: 'a delivery' });
    const event = verified(hooks.received[0]!);
    assert.deepEqual([event.type, event.id], ['workflow.failed', 'p1']);
    assert.match(String((event.error as { message: string }).message), /photo: expected an http\(s\) URL/);
  });

  it('a decision and a batch: their legacy envelopes, decision.completed and batch.completed', async () => {
    hooks.received.length = 0;
    const decision = await runInProcess(['decision', 'create', '--type', 'text', '--content', '{"text":"see you"}', '--json'], { env: emulator.env });
    assert.equal(decision.code, 0, decision.stderr);
    const csv = join(dir, 'reviews.csv');
    writeFileSync(csv, 'Content\nnice bike\n');
    const batch = await runInProcess(['batch', 'create', csv, '--type', 'text', '--wait', '--json'], { env: emulator.env });
    assert.equal(batch.code, 0, batch.stderr);
    await waitFor(() => hooks.received.length >= 2, { what: 'two deliveries' });
    const events = hooks.received.map(verified);
    const completed = events.find((event) => event.event_type === 'decision.completed')!;
    assert.equal((completed.data as { decision_id: string }).decision_id, JSON.parse(decision.stdout).decision_id);
    assert.equal((completed.data as { decision_status: string }).decision_status, 'SUCCESS');
    const ended = events.find((event) => event.event_type === 'batch.completed')!;
    assert.deepEqual([(ended.data as { batch_id: string }).batch_id, (ended.data as { batch_status: string }).batch_status], [JSON.parse(batch.stdout).batch_id, 'SUCCESS']);
  });

  it('a receiver that fails twice gets a third attempt under the same webhook-id; the attempts are listed', async () => {
    const failing = await receiver([500, 503]);
    try {
      const added = (await emulator.control('/_emulator/webhooks/endpoints', { method: 'POST', body: { url: failing.url, events: ['decision.completed'] } })) as { endpoint_id: string };
      const result = await runInProcess(['webhooks', 'trigger', 'decision.completed', '--json'], { env: emulator.env });
      assert.equal(result.code, 0, result.stderr);
      const triggered = JSON.parse(result.stdout) as { webhook_id: string; deliveries: number };
      assert.equal(triggered.deliveries, 2, 'the endpoint given at start and the one added');
      await waitFor(() => failing.received.length >= 3, { what: 'three attempts' });
      assert.deepEqual(failing.received.map((attempt) => attempt.headers['webhook-id']), [triggered.webhook_id, triggered.webhook_id, triggered.webhook_id]);
      assert.equal(verified(failing.received[2]!).event_type, 'decision.completed');
      await waitFor(async () => {
        const { deliveries } = (await emulator.control('/_emulator/webhooks?limit=1000')) as { deliveries: Array<{ webhook_id: string; endpoint_id: string; state: string; attempts: Array<{ status?: number }> }> };
        const mine = deliveries.find((delivery) => delivery.webhook_id === triggered.webhook_id && delivery.endpoint_id === added.endpoint_id);
        return mine?.state === 'delivered' && mine.attempts.map((attempt) => attempt.status).join() === '500,503,204';
      }, { what: 'the delivery listed as delivered after 500, 503, 204' });
      await emulator.control(`/_emulator/webhooks/endpoints/${added.endpoint_id}`, { method: 'DELETE' });
    } finally {
      failing.close();
    }
  });

  it('webhooks verify: a delivery as received passes; the body tampered with, or a stale timestamp, fails with one line, exit 1', async () => {
    hooks.received.length = 0;
    await trigger(emulator.env, 'workflow.succeeded', '--id', 'listing-9');
    await waitFor(() => hooks.received.length >= 1, { what: 'a delivery' });
    const { headers, body } = hooks.received[0]!;
    const bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, body);
    const args = ['webhooks', 'verify', '--secret', SECRET, '--id', String(headers['webhook-id']), '--timestamp', String(headers['webhook-timestamp']), '--signature', String(headers['webhook-signature'])];
    const valid = await runInProcess([...args, bodyFile]);
    assert.equal(valid.code, 0, valid.stderr);
    const tampered = await runInProcess([...args, '-'], { input: body.replace('listing-9', 'listing-8') });
    assert.equal(tampered.code, 1);
    assert.match(tampered.stderr, /^error: invalid: signature does not match\nhint: check that the secret is this endpoint's and that the body is the raw bytes received/);
    const stale = await runInProcess(['webhooks', 'verify', '--secret', SECRET, '--headers', join(EXAMPLES, 'webhook-headers.txt'), join(EXAMPLES, 'webhook-body.json')]);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /^error: invalid: timestamp \d+ days old \(tolerance 5 min\)\nhint: .*--tolerance 0\n$/);
  });
});

describe('emulator webhooks: a receiver that hangs, and a restart', () => {
  it('an attempt not answered within --webhook-timeout is recorded as such and retried; the deliveries pending at a stop are made after a restart on the same --data-dir', async () => {
    const dataDir = tempDir();
    // A receiver that takes requests but never answers them.
    const hanging = createServer(() => undefined);
    const hangingUrl = `${await listenOnLoopback(hanging)}/hooks`;
    let webhookId = '';
    try {
      await withEmulatorProcess(['--data-dir', dataDir, '--webhook-url', hangingUrl, '--webhook-secret', SECRET, '--webhook-timeout', '300ms', '--webhook-retry-delays', '100ms,5s,100ms'], async (first) => {
        const triggered = await runInProcess(['webhooks', 'trigger', 'batch.completed', '--json'], { env: first.env });
        webhookId = (JSON.parse(triggered.stdout) as { webhook_id: string }).webhook_id;
        await waitFor(async () => {
          const { deliveries } = (await first.control('/_emulator/webhooks')) as { deliveries: Array<{ attempts: Array<{ error?: string }> }> };
          return (deliveries[0]?.attempts.length ?? 0) >= 2;
        }, { what: 'two attempts, each timed out' });
        const { deliveries } = (await first.control('/_emulator/webhooks')) as { deliveries: Array<{ state: string; attempts: Array<{ error?: string }> }> };
        assert.deepEqual(deliveries[0]!.attempts.slice(0, 2).map((attempt) => attempt.error), ['no answer within 0.3 s', 'no answer within 0.3 s']);
        assert.equal(deliveries[0]!.state, 'pending', 'a third attempt is due in 5 s');
      });
    } finally {
      closeServer(hanging);
    }
    // The receiver now answers, at the same address; the restarted emulator makes the pending delivery when it is due.
    const answered: Received[] = [];
    const answering = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        answered.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => answering.listen(Number(new URL(hangingUrl).port), '127.0.0.1', resolve));
    try {
      await withEmulatorProcess(['--data-dir', dataDir, '--webhook-secret', SECRET], async (second) => {
        const { endpoints } = (await second.control('/_emulator/webhooks/endpoints')) as { endpoints: Array<{ url: string }> };
        assert.deepEqual(endpoints.map((endpoint) => endpoint.url), [hangingUrl], 'endpoints survive a restart');
        await waitFor(() => answered.length >= 1, { what: 'the delivery left pending, made after the restart' });
        assert.equal(answered[0]!.headers['webhook-id'], webhookId, 'under the same webhook-id');
        assert.equal(verified(answered[0]!).event_type, 'batch.completed');
        await waitFor(async () => {
          const { deliveries } = (await second.control('/_emulator/webhooks')) as { deliveries: Array<{ state: string; attempts: Array<{ status?: number }> }> };
          const statuses = deliveries[0]?.attempts.map((attempt) => attempt.status ?? 'none') ?? [];
          return deliveries[0]?.state === 'delivered' && statuses.at(-1) === 204 && statuses.slice(0, -1).every((status) => status === 'none');
        }, { what: 'the delivery listed as delivered on its last attempt, after the attempts that timed out' });
      });
    } finally {
      closeServer(answering);
    }
  });
});

describe('csafe webhooks listen', () => {
  const FORWARD_SECRET = 'whsec_dGhlIHJlY2VpdmVyJ3Mgb3duIHNlY3JldA==';
  let emulator: EmulatorProcess;
  before(async () => {
    emulator = await startEmulatorProcess(['--webhook-secret', SECRET]);
  });
  after(() => emulator.stop());

  const endpoints = async () => ((await emulator.control('/_emulator/webhooks/endpoints')) as { endpoints: Array<{ endpoint_id: string; lease_seconds?: number; expires_at?: string }> }).endpoints;

  it('registers itself, forwards each delivery re-signed with --forward-secret, prints it, registers again after a reset, and leaves on Ctrl-C', async (t) => {
    const hooks = await receiver();
    t.after(() => hooks.close());
    const child = spawnCsafe(['webhooks', 'listen', '--forward-to', hooks.url, '--forward-secret', FORWARD_SECRET], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = exitOf(child);
    await waitFor(async () => (await endpoints()).length === 1, { what: 'the listener registered' });
    const [registered] = await endpoints();
    assert.equal(registered!.lease_seconds, 30, 'on a lease, so a listener killed with -9 leaves no endpoint for good');
    await waitFor(async () => (await endpoints())[0]!.expires_at! > registered!.expires_at!, { what: 'the lease renewed', timeoutMs: 10_000 });
    const triggered = await runInProcess(['webhooks', 'trigger', 'workflow.succeeded', '--id', 'listing-5', '--json'], { env: emulator.env });
    const { webhook_id: webhookId } = JSON.parse(triggered.stdout) as { webhook_id: string };
    await waitFor(() => hooks.received.length === 1, { what: 'the delivery forwarded' });
    const forwarded = hooks.received[0]!;
    assert.equal(forwarded.headers['webhook-id'], webhookId, 'the same webhook-id');
    assert.equal(forwarded.headers.authorization, undefined, 'the API key never goes to the receiver');
    assert.equal((new Webhook(FORWARD_SECRET).verify(forwarded.body, forwarded.headers as Record<string, string>) as { id: string }).id, 'listing-5', 'signed with the receiver\'s secret');
    await waitFor(() => stdout.includes('\n'), { what: 'the line it prints' });
    assert.deepEqual(
      (({ webhook_id, type, about, status }) => ({ webhook_id, type, about, status }))(JSON.parse(stdout.split('\n')[0]!) as Record<string, unknown>),
      { webhook_id: webhookId, type: 'workflow.succeeded', about: 'listings/listing-5', status: 204 },
    );
    await emulator.control('/_emulator/reset', { method: 'POST' });
    await waitFor(() => /registered again as ep_/.test(stderr), { what: 'the listener to say it registered again after the reset', timeoutMs: 10_000 });
    assert.equal((await endpoints()).length, 1);
    child.kill('SIGINT');
    assert.equal(await exited, 0, stderr);
    assert.deepEqual(await endpoints(), [], 'its endpoint removed');
  });

  it('with --forward-secret, a request to its port at another address than the one registered is refused, never re-signed and forwarded', async (t) => {
    const hooks = await receiver();
    t.after(() => hooks.close());
    const child = spawnCsafe(['webhooks', 'listen', '--forward-to', hooks.url, '--forward-secret', FORWARD_SECRET], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const exited = exitOf(child);
    await waitFor(async () => (await endpoints()).length === 1, { what: 'the listener registered' });
    const registered = new URL(((await endpoints())[0] as unknown as { url: string }).url);
    // Any process on the machine can find the port; it has neither the emulator's secret nor the registered address.
    const forged = await fetch(new URL('/', registered), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: '{"type":"workflow.succeeded","namespace":"listings","id":"forged"}',
    });
    assert.equal(forged.status, 404);
    assert.notEqual(registered.pathname, '/', 'an address no other process can guess');
    await trigger(emulator.env, 'workflow.succeeded', '--id', 'listing-6');
    await waitFor(() => hooks.received.length === 1, { what: 'the emulator\'s delivery forwarded' });
    assert.equal((new Webhook(FORWARD_SECRET).verify(hooks.received[0]!.body, hooks.received[0]!.headers as Record<string, string>) as { id: string }).id, 'listing-6');
    child.kill('SIGINT');
    assert.equal(await exited, 0);
    assert.equal(hooks.received.length, 1, 'the forged request never reached the receiver');
  });

  it('an unknown --events type or a --forward-to that is no http(s) URL: named, exit 2, nothing registered', async () => {
    for (const [flag, value] of [['--events', 'workflow.succeeded,nope'], ['--forward-to', 'ftp://example.com/hooks']] as const) {
      const result = await runInProcess(['webhooks', 'listen', flag, value], { env: emulator.env });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, new RegExp(`^error: ${flag}: expected `));
    }
    assert.deepEqual(await endpoints(), []);
  });

  it('a --forward-to with a user name and password: refused before anything is registered, the password never shown, exit 2', async () => {
    const result = await runCsafe(['webhooks', 'listen', '--forward-to', 'http://bob:hunter2@127.0.0.1:9/hooks'], { env: emulator.env, timeoutMs: 20_000 });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^error: --forward-to: expected a URL without a user name or password, got "http:\/\/\*\*\*@127\.0\.0\.1:9\/hooks"/);
    assert.ok(!`${result.stdout}${result.stderr}`.includes('hunter2'), result.stderr);
    assert.deepEqual(await endpoints(), []);
  });

  it('a --forward-to with a token in its query: its ready line shows the address with the token redacted, and forwards with it', async (t) => {
    const hooks = await receiver();
    t.after(() => hooks.close());
    const child = spawnCsafe(['webhooks', 'listen', '--forward-to', `${hooks.url}?token=s3cr3t-receiver-token`], { env: emulator.env });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = exitOf(child);
    await waitFor(() => stderr.includes('Ready: '), { what: 'the ready line' });
    assert.match(stderr, /Ready: forwarding to http:\/\/127\.0\.0\.1:\d+\/hooks\?token=\[REDACTED\] /);
    await trigger(emulator.env, 'workflow.failed', '--id', 'listing-7');
    await waitFor(() => hooks.received.length === 1, { what: 'the delivery forwarded' });
    child.kill('SIGINT');
    assert.equal(await exited, 0, stderr);
    assert.ok(!stderr.includes('s3cr3t-receiver-token'), stderr);
  });

  it('against a service that is no emulator: says where endpoints are set instead, exit 2', async (t) => {
    const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"type":"not_found","message":"no such route"}}'));
    const baseUrl = await listenOnLoopback(server);
    t.after(() => closeServer(server));
    const result = await runInProcess(['webhooks', 'listen'], { env: { CSAFE_BASE_URL: baseUrl, CSAFE_API_KEY: 'sk_test_not_an_emulator' } });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /is not a csafe emulator: the service sends its notifications to the endpoints set in its dashboard/);
  });
});

describe('emulator webhooks: injected delivery faults', () => {
  it('drop: no attempt reaches the receiver, each is recorded as dropped and retried until the schedule ends; delay: it arrives late, signed as it is sent', async (t) => {
    const hooks = await receiver();
    t.after(() => hooks.close());
    await withEmulatorProcess(['--webhook-url', hooks.url, '--webhook-secret', SECRET, '--webhook-fault-rate', '1', '--webhook-faults', 'drop', '--webhook-retry-delays', '50ms,50ms'], async (dropping) => {
      await trigger(dropping.env, 'batch.completed');
      await waitFor(async () => ((await dropping.control('/_emulator/webhooks')) as { deliveries: Array<{ state: string }> }).deliveries[0]?.state === 'failed', { what: 'the delivery failed' });
      const { deliveries } = (await dropping.control('/_emulator/webhooks')) as { deliveries: Array<{ attempts: Array<{ error?: string }> }> };
      assert.deepEqual(deliveries[0]!.attempts.map((attempt) => attempt.error), Array(3).fill('dropped (injected fault): not sent'));
      assert.equal(hooks.received.length, 0);
    });
    await withEmulatorProcess(['--webhook-url', hooks.url, '--webhook-secret', SECRET, '--webhook-fault-rate', '1', '--webhook-faults', 'delay', '--webhook-fault-delay', '400ms'], async (delaying) => {
      await trigger(delaying.env, 'batch.completed');
      await waitFor(() => hooks.received.length === 1, { what: 'the delayed delivery' });
      assert.equal(verified(hooks.received[0]!).event_type, 'batch.completed');
      const listed = async () => ((await delaying.control('/_emulator/webhooks')) as { deliveries: Array<{ state: string; attempts: Array<{ duration_ms: number }> }> }).deliveries;
      await waitFor(async () => (await listed())[0]?.state === 'delivered', { what: 'the delivery listed as delivered' });
      const deliveries = await listed();
      assert.ok(deliveries[0]!.attempts[0]!.duration_ms >= 400, `sent ${deliveries[0]!.attempts[0]!.duration_ms} ms after it was due`);
    });
  });
});

describe('emulator webhooks: receivers that misbehave hold only their own share', () => {
  it('an endpoint that hangs does not hold up another; an answer without end is read no further than needed', async (t) => {
    const healthy = await receiver();
    t.after(() => healthy.close());
    const hanging = createServer(() => undefined);
    const hangingUrl = `${await listenOnLoopback(hanging)}/hooks`;
    t.after(() => closeServer(hanging));
    // Answers 200, then sends 1 MB chunks until the connection goes.
    const endless = createServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      const more = () => {
        while (res.write(chunk));
        res.once('drain', more);
      };
      more();
    });
    const endlessUrl = `${await listenOnLoopback(endless)}/hooks`;
    t.after(() => closeServer(endless));
    await withEmulatorProcess(['--webhook-url', hangingUrl, '--webhook-url', healthy.url, '--webhook-url', endlessUrl, '--webhook-secret', SECRET, '--webhook-timeout', '10s'], async (emulator) => {
      // More events than attempts may be in flight in all (32): the hanging endpoint must not take every slot.
      for (let i = 0; i < 40; i++) await emulator.control('/_emulator/webhooks/trigger', { method: 'POST', body: { type: 'batch.completed', id: `bat_${i}` } });
      await waitFor(() => healthy.received.length === 40, { what: 'the healthy endpoint to get all 40 while the other hangs', timeoutMs: 8_000 });
      const { deliveries } = (await emulator.control('/_emulator/webhooks?limit=1000')) as { deliveries: Array<{ url: string; state: string }> };
      await waitFor(async () => {
        const listed = ((await emulator.control('/_emulator/webhooks?limit=1000')) as { deliveries: Array<{ url: string; state: string }> }).deliveries;
        return listed.filter((delivery) => delivery.url === endlessUrl && delivery.state === 'delivered').length === 40;
      }, { what: 'the endless answers taken as delivered, their bodies not read to the end', timeoutMs: 8_000 });
      assert.equal(deliveries.length, 120);
    });
  });
});
