import assert from 'node:assert/strict';
import type { FileHandle } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { processStartTime } from '../../src/core/files/processes.js';
import { EventStore, type StoredEvent } from '../../src/emulator/stores/event-store.js';
import { tempDir } from '../helpers/cli.js';
import { assertError, call, useTestEmulator } from './support.js';

const event = (n: number, key: string | null = `k${n}`) => ({
  type: 'create_account',
  event_name: 'signed_up',
  timestamp: '2026-08-11T09:30:00Z',
  user_id: `u${n}`,
  ...(key !== null && { idempotency_key: key }),
  metadata: { n },
});

interface Page {
  total: number;
  duplicates: number;
  next: number | null;
  events: Array<{ seq: number; event_id: string; duplicates: number; event: { metadata: { n: number } } }>;
}

/** Stores `events` as one request, its body as the emulator receives it. */
const ingest = (store: EventStore, events: readonly Record<string, unknown>[], batch = true) =>
  store.ingest(Buffer.from(JSON.stringify(batch ? events : events[0])), events, batch, Date.parse('2026-11-24T00:00:00Z'));

async function listed(store: EventStore, after = 0, last = store.counts().total): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for await (const events of store.list(after, last)) all.push(...events);
  return all;
}

describe('emulator: the event store', () => {
  test('keeps events on disk as their requests came, de-duplicated by idempotency_key, in private files of the events folder', async () => {
    const dir = tempDir('csafe-events-');
    const store = await EventStore.open(dir);
    try {
      assert.deepEqual(await ingest(store, [event(1), event(2), event(1)]), [1, 2, 1]);
      assert.deepEqual(await ingest(store, [event(3, null)], false), [3]);
      assert.deepEqual(await ingest(store, [event(2), event(4)]), [2, 4], 'a retried request repeats an earlier one');
      assert.deepEqual(store.counts(), { total: 4, duplicates: 2 });
      assert.deepEqual(
        (await listed(store)).map(({ seq, duplicates, idempotency_key, event: stored }) => ({ seq, duplicates, idempotency_key, stored })),
        [
          { seq: 1, duplicates: 1, idempotency_key: 'k1', stored: event(1) },
          { seq: 2, duplicates: 1, idempotency_key: 'k2', stored: event(2) },
          { seq: 3, duplicates: 0, idempotency_key: null, stored: event(3, null) },
          { seq: 4, duplicates: 0, idempotency_key: 'k4', stored: event(4) },
        ],
      );
      assert.deepEqual((await listed(store, 1, 2)).map((e) => e.seq), [2]);
      assert.deepEqual(readdirSync(join(dir, 'events')).sort(), ['index', 'log', 'owner']);
      for (const name of ['index', 'log', 'owner']) assert.equal(statSync(join(dir, 'events', name)).mode & 0o777, 0o600, name);
    } finally {
      await store.close();
    }
  });

  test('opened again on the same folder, it has every event, key and duplicate count; what a kill mid-append left is cut off', async () => {
    const dir = tempDir('csafe-events-');
    const first = await EventStore.open(dir);
    await ingest(first, [event(1), event(2), event(1)]);
    await ingest(first, [event(3, null)], false);
    await first.close();
    // A kill after a body was written but before its records, and one part-way through a record.
    appendFileSync(join(dir, 'events', 'log'), JSON.stringify([event(7)]));
    appendFileSync(join(dir, 'events', 'index'), Buffer.alloc(20, 1));
    const second = await EventStore.open(dir);
    try {
      assert.deepEqual(second.counts(), { total: 3, duplicates: 1 });
      assert.deepEqual(await ingest(second, [event(2), event(5)]), [2, 4], 'keys stored before the restart are still known');
      assert.deepEqual((await listed(second)).map((e) => [e.seq, e.duplicates, (e.event as { user_id: string }).user_id]), [[1, 1, 'u1'], [2, 1, 'u2'], [3, 0, 'u3'], [4, 0, 'u5']]);
    } finally {
      await second.close();
    }
  });

  test('an index longer than its log (a log cut by hand) keeps only the records whose bodies are whole', async () => {
    const dir = tempDir('csafe-events-');
    const first = await EventStore.open(dir);
    await ingest(first, [event(1)]);
    await ingest(first, [event(2)]);
    await first.close();
    truncateSync(join(dir, 'events', 'log'), 10 + JSON.stringify([event(1)]).length);
    const second = await EventStore.open(dir);
    try {
      assert.deepEqual((await listed(second)).map((e) => e.seq), [1]);
    } finally {
      await second.close();
    }
  });

  test('a second store on a folder another one holds keeps events of its own, seen by nobody else', async () => {
    const dir = tempDir('csafe-events-');
    const owner = await EventStore.open(dir);
    const other = await EventStore.open(dir);
    try {
      await ingest(other, [event(1)]);
      assert.equal(owner.counts().total, 0);
      assert.deepEqual(readdirSync(join(dir, 'events')).sort(), ['index', 'log', 'owner'], 'its files are removed as soon as they are open');
    } finally {
      await Promise.all([owner.close(), other.close()]);
    }
    const next = await EventStore.open(dir);
    assert.equal(next.counts().total, 0, 'the owner, gone, gave the folder up');
    await next.close();
  });

  /** Events stored by a store since gone, and its owner file left behind naming `owner`, as a kill -9 leaves it. */
  async function leftByAKill(owner: string): Promise<string> {
    const dir = tempDir('csafe-events-');
    const first = await EventStore.open(dir);
    await ingest(first, [event(1), event(2)]);
    await first.close();
    writeFileSync(join(dir, 'events', 'owner'), owner);
    return dir;
  }

  test('an owner killed with -9 and not yet waited for (a zombie) is gone: the next store has its events', { skip: !existsSync('/proc/self/stat') }, async () => {
    // sh forks a short sleep and becomes a long one, which never waits for it: the short one, ended after the exec, stays a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0.5 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [line] = (await once(parent.stdout, 'data')) as [Buffer];
      const zombie = Number(line.toString().trim());
      while (!/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${zombie}/stat`, 'utf8'))) await new Promise((resolve) => setTimeout(resolve, 10));
      const dir = await leftByAKill(String(zombie));
      const second = await EventStore.open(dir);
      try {
        assert.equal(second.counts().total, 2, 'the events acknowledged before the kill');
        await ingest(second, [event(3)]);
      } finally {
        await second.close();
      }
      const third = await EventStore.open(dir);
      assert.equal(third.counts().total, 3, 'and those sent after the restart');
      await third.close();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  test('an owner of this pid that started at another time (the emulator a restarted container had, killed) is gone; the owner file names pid and start', async () => {
    const dir = await leftByAKill(`${process.pid} 1`);
    const second = await EventStore.open(dir);
    try {
      assert.equal(second.counts().total, 2);
      const started = await processStartTime(process.pid);
      assert.equal(readFileSync(join(dir, 'events', 'owner'), 'utf8'), started === undefined ? String(process.pid) : `${process.pid} ${started}`);
    } finally {
      await second.close();
    }
  });

  test('a listing under way when the events are cleared ends there: it never reads on into events stored after', async () => {
    const store = await EventStore.open(tempDir('csafe-events-'));
    try {
      // Two requests, so the listing reads a body per request and awaits between them; what comes after the clear is longer than both.
      await ingest(store, [event(1), event(2)]);
      await ingest(store, [event(3)]);
      const listing = store.list(0, 3);
      const first = await listing.next();
      assert.deepEqual((first.value as StoredEvent[]).map((e) => e.seq), [1, 2]);
      await store.clear();
      await ingest(store, [{ ...event(9), metadata: { n: 9, padding: 'x'.repeat(2000) } }]);
      const rest: StoredEvent[] = [];
      for (let next = await listing.next(); !next.done; next = await listing.next()) rest.push(...next.value);
      assert.deepEqual(rest, [], 'nothing of what came after the clear');
    } finally {
      await store.close();
    }
  });

  test('a request whose events cannot all be written stores none of them, and the next takes the next seqs', async () => {
    let failing = false;
    let writes = 0;
    // The request's body is written first, then its events' records: the disk fills at the records.
    const failOnIndex = async (file: FileHandle, bytes: Buffer, position: number) => {
      if (failing && ++writes === 2) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      return (await file.write(bytes, 0, bytes.length, position)).bytesWritten;
    };
    const store = await EventStore.open(tempDir('csafe-events-'), failOnIndex);
    try {
      await ingest(store, [event(1)]);
      failing = true;
      await assert.rejects(ingest(store, [event(2), event(1)]), { code: 'ENOSPC' });
      failing = false;
      assert.deepEqual(store.counts(), { total: 1, duplicates: 0 });
      assert.deepEqual(await ingest(store, [event(5), event(2)]), [2, 3], 'k2 was not stored by the failed request');
      assert.deepEqual((await listed(store)).map((e) => e.event), [event(1), event(5), event(2)]);
    } finally {
      await store.close();
    }
  });
});

describe('emulator: GET /_emulator/events pages', () => {
  const emulator = useTestEmulator();

  test('follow one another through `next` to the same events as one listing, each page valid JSON', async () => {
    for (let request = 0; request < 5; request++) {
      const batch = Array.from({ length: 500 }, (_, k) => event(request * 500 + k));
      assert.equal((await call(emulator, 'POST', '/v1/async/events', { json: batch })).status, 202);
    }
    assert.equal((await call(emulator, 'POST', '/v1/async/events', { json: [event(7), event(2400)] })).status, 202);
    const whole = (await call(emulator, 'GET', '/_emulator/events')).body as Page;
    assert.deepEqual([whole.total, whole.duplicates, whole.next, whole.events.length], [2500, 2, null, 2500]);

    const paged: Page['events'] = [];
    const afters: number[] = [];
    for (let after: number | null = 0; after !== null; ) {
      afters.push(after);
      const reply = await call(emulator, 'GET', `/_emulator/events?after=${after}&limit=700`);
      assert.equal(reply.status, 200);
      const page = reply.body as Page;
      assert.deepEqual([page.total, page.duplicates], [2500, 2]);
      paged.push(...page.events);
      after = page.next;
    }
    assert.deepEqual(afters, [0, 700, 1400, 2100]);
    assert.deepEqual(paged, whole.events);
    assert.equal(whole.events[7]!.duplicates, 1);
    assert.deepEqual(((await call(emulator, 'GET', '/_emulator/events?after=2500')).body as Page).events, []);
  });

  test('refuse a page parameter that is not a whole number, naming it', async () => {
    for (const query of ['after=-1', 'after=x', 'limit=0', 'limit=1.5']) {
      assertError(await call(emulator, 'GET', `/_emulator/events?${query}`), 400, query.split('=')[0]);
    }
  });
});
