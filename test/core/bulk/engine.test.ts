import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyCounts } from '../../../src/core/bulk/counts.js';
import { batchLines } from '../../../src/core/bulk/batches.js';
import { deliverInBatches, type BulkJob, type BulkRecord, type BulkRun, type Dispatch, type LeftAtOnce } from '../../../src/core/bulk/engine.js';
import { FailFast } from '../../../src/core/bulk/fail-fast.js';
import { apiErrorFor, ConnectionError, InterruptedError, UsageError } from '../../../src/core/errors.js';
import { FailedFile } from '../../../src/core/files/failed-file.js';
import { sayLastWords } from '../../../src/core/signals.js';
import { bufferIO } from '../../helpers/io.js';
import { tempDir } from '../../helpers/cli.js';

// The one rule every bulk command's batches are settled by, without HTTP: `send` answers as a
// service would, or fails with the error the HTTP core would give after its retries.

type Rec = BulkRecord & { key: string };

const records = (count: number, keyOf = (n: number) => `k${n % 2}`): Rec[] =>
  Array.from({ length: count }, (_, index) => ({ line: index + 1, json: `{"n":${index + 1}}`, key: keyOf(index + 1) }));

async function* inGroups<T>(items: T[]): AsyncGenerator<T[]> {
  yield items;
}

const status = (code: number) => apiErrorFor({ status: code, method: 'POST', path: '/x', serviceMessage: `answered ${code}` });
/** A reset after the request was sent: the service may have applied it. */
const lostAnswer = () => new ConnectionError('socket hang up', true);
const refused = () => new ConnectionError('connect ECONNREFUSED', false);

function setUp(options: { signal?: AbortSignal; limit?: number } = {}) {
  const dir = tempDir();
  const { io, stderr } = bufferIO();
  const run: BulkRun = {
    io,
    counts: emptyCounts(),
    failed: new FailedFile(join(dir, 'failed.jsonl')),
    unconfirmed: new FailedFile(join(dir, 'unconfirmed.jsonl')),
    failFast: new FailFast(options.limit ?? 5, 'http://service.test'),
    signal: options.signal ?? new AbortController().signal,
    retriesMade: () => 0,
  };
  const lines = (file: 'failed' | 'unconfirmed') => (existsSync(run[file].path) ? readFileSync(run[file].path, 'utf8').trim().split('\n').map((json) => (JSON.parse(json) as { n: number }).n) : []);
  return { run, stderr, lines };
}

/** A job whose `answer(batch)` decides each request; acknowledged batches are recorded by their record numbers. */
function job(answer: (batch: Rec[]) => unknown, more: Partial<BulkJob<Rec, unknown>> = {}) {
  const acknowledged: number[][] = [];
  const sent: number[][] = [];
  const spec: BulkJob<Rec, unknown> = {
    noun: 'record',
    inputName: 'in.jsonl',
    send: async (batch) => {
      sent.push(batch.map((r) => r.line));
      await new Promise((resolve) => setImmediate(resolve));
      const outcome = answer(batch);
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    replaySafe: () => false,
    acknowledged: (batch) => void acknowledged.push(batch.map((r) => r.line)),
    ...more,
  };
  return { spec, acknowledged, sent };
}

const limits = (maxItems: number) => ({ maxItems, maxBytes: 1_000_000, sizeOf: () => 1 });
const DISPATCHES: Array<[string, Dispatch<Rec>]> = [
  ['in any order, settled in input order', { concurrency: 3 }],
  ['over lanes', { lanes: 2, laneOf: (record: Rec) => record.line % 2 }],
];

for (const [how, dispatch] of DISPATCHES) {
  describe(`the bulk engine (${how})`, () => {
    it('counts a batch the service acknowledged as sent, and hands it to the command', async () => {
      const { run } = setUp();
      const { spec, acknowledged } = job(() => ({ ok: true }));
      const delivered = await deliverInBatches(inGroups(records(6)), limits(2), dispatch, spec, run);
      assert.deepEqual(delivered, { interrupted: false, stoppedBy: undefined });
      assert.deepEqual(acknowledged.flat().sort((a, b) => a - b), [1, 2, 3, 4, 5, 6]);
      assert.equal(run.counts.sent, 6);
      assert.equal(run.counts.requests, acknowledged.length);
      assert.ok(acknowledged.every((batch) => batch.length <= 2), 'at most --batch-size records a request');
    });

    it('a lost answer goes to the unconfirmed file when the batch is not safe to send twice, to the failed file when it is', async () => {
      for (const replaySafe of [false, true]) {
        const { run, lines, stderr } = setUp();
        const { spec } = job((batch) => (batch.some((r) => r.line === 3) ? lostAnswer() : { ok: true }), { replaySafe: () => replaySafe });
        await deliverInBatches(inGroups(records(4)), limits(1), dispatch, spec, run);
        assert.deepEqual([lines('unconfirmed'), lines('failed')], replaySafe ? [[], [3]] : [[3], []]);
        assert.equal(run.counts.sent, 3);
        assert.match(stderr(), replaySafe ? /^in\.jsonl:3: a batch of 1 record failed: socket hang up$/m : /^in\.jsonl:3: a batch of 1 record may have been stored, its answer was lost: socket hang up$/m);
      }
    });

    it('a refused key halts the run: no later request is sent, and every record not acknowledged is in the failed file', async () => {
      const { run, lines, stderr } = setUp();
      const { spec, sent } = job((batch) => (batch[0]!.line >= 3 ? status(401) : { ok: true }));
      const delivered = await deliverInBatches(inGroups(records(8)), limits(1), dispatch, spec, run);
      assert.equal((delivered.stoppedBy as { status?: number }).status, 401);
      assert.deepEqual([...lines('failed')].sort((a, b) => a - b), [3, 4, 5, 6, 7, 8]);
      assert.equal(run.counts.sent + run.counts.failed, 8);
      assert.ok(sent.length < 8, `requests after the refusal were not sent (${sent.length} of 8 sent)`);
      assert.doesNotMatch(stderr(), /401/, 'the halt is said once, by the command, not per batch');
    });

    it('connections refused --max-consecutive-failures times in a row halt the run the same way', async () => {
      const { run, lines } = setUp({ limit: 2 });
      const { spec } = job(() => refused());
      const delivered = await deliverInBatches(inGroups(records(6)), limits(1), dispatch, spec, run);
      assert.match(String(delivered.stoppedBy?.message), /could not be reached|unreachable/i);
      assert.deepEqual([...lines('failed')].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6]);
    });

    it('an error of csafe\'s own stops the run once the requests in flight are answered', async () => {
      const { run } = setUp();
      const { spec } = job((batch) => (batch[0]!.line === 2 ? new UsageError('bad') : { ok: true }));
      await assert.rejects(deliverInBatches(inGroups(records(6)), limits(1), dispatch, spec, run), { message: 'bad' });
    });

    it('what the command does with an acknowledged batch failing (stdout gone) stops the run, and never puts that batch in the failed file', async () => {
      const { run, lines } = setUp();
      const { spec } = job(() => ({ ok: true }), {
        acknowledged: (batch) => {
          if (batch[0]!.line === 2) throw new Error('EPIPE');
        },
      });
      await assert.rejects(deliverInBatches(inGroups(records(6)), limits(1), dispatch, spec, run), { message: 'EPIPE' });
      assert.deepEqual(lines('failed'), [], 'the service has it: it is not a failure to resend');
      assert.ok(run.counts.sent >= 2);
    });

    it('Ctrl-C: no batch starts after it, those in flight are settled, the rest is neither sent nor failed', async () => {
      const controller = new AbortController();
      const { run, lines } = setUp({ signal: controller.signal });
      const { spec, acknowledged, sent } = job((batch) => {
        if (batch[0]!.line === 2) controller.abort();
        return { ok: true };
      });
      const delivered = await deliverInBatches(inGroups(records(20)), limits(1), dispatch, spec, run);
      assert.equal(delivered.interrupted, true);
      assert.ok(sent.length < 20, `sending stopped (${sent.length} of 20 sent)`);
      assert.equal(acknowledged.length, sent.length, 'every request sent was settled');
      assert.deepEqual(lines('failed'), []);
    });

    it('Ctrl-C while a request waits to be retried: its records go to the failed file (not processed, safe to resend), never nowhere', async () => {
      const controller = new AbortController();
      const { run, lines } = setUp({ signal: controller.signal });
      const { spec, acknowledged } = job((batch) => {
        if (batch[0]!.line !== 2) return { ok: true };
        controller.abort();
        // What the HTTP core throws when the signal cuts a retry's wait short.
        return new InterruptedError();
      });
      const delivered = await deliverInBatches(inGroups(records(20)), limits(1), dispatch, spec, run);
      assert.equal(delivered.interrupted, true);
      assert.deepEqual(lines('failed'), [2]);
      assert.ok(acknowledged.flat().includes(1));
    });

    it('Ctrl-C cutting the reading short ends the input: the requests in flight are still settled, and nothing is thrown', async () => {
      const controller = new AbortController();
      const { run } = setUp({ signal: controller.signal });
      const { spec, acknowledged, sent } = job(() => ({ ok: true }));
      async function* readCutShort(): AsyncGenerator<Rec[]> {
        yield records(4);
        controller.abort();
        throw new InterruptedError();
      }
      const delivered = await deliverInBatches(readCutShort(), limits(1), dispatch, spec, run);
      assert.equal(delivered.interrupted, true);
      assert.equal(acknowledged.length, sent.length, 'every request sent was settled');
      assert.equal(run.counts.sent, acknowledged.flat().length);
    });

    it('a halt is told to the command once, however many batches fail after it', async () => {
      const { run } = setUp();
      const halts: string[] = [];
      const { spec } = job(() => status(401), { onHalt: (error) => void halts.push(error.message) });
      await deliverInBatches(inGroups(records(8)), limits(1), dispatch, spec, run);
      assert.equal(halts.length, 1, halts.join('\n'));
      assert.match(halts[0]!, /answered 401/);
    });

    it('a failure says which lines and which batch, once per batch', async () => {
      const { run, stderr } = setUp();
      let refusedBatch: number[] = [];
      const { spec } = job((batch) => {
        if (!batch.some((record) => record.line === 3)) return { ok: true };
        refusedBatch = batch.map((record) => record.line);
        return status(422);
      });
      await deliverInBatches(inGroups(records(4)), limits(2), dispatch, spec, run);
      assert.equal(refusedBatch.length, 2);
      assert.equal(stderr(), `in.jsonl:${batchLines(refusedBatch.map((line) => ({ line })))}: a batch of 2 records failed: POST /x: 422: answered 422\n`);
    });

    it('Ctrl-C while a request waits to be retried says which lines it cut short', async () => {
      const controller = new AbortController();
      const { run, stderr } = setUp({ signal: controller.signal });
      const { spec } = job((batch) => {
        if (batch[0]!.line !== 2) return { ok: true };
        controller.abort();
        return new InterruptedError();
      });
      await deliverInBatches(inGroups(records(3)), limits(1), dispatch, spec, run);
      assert.match(stderr(), /^in\.jsonl:2: interrupted/m);
    });

    it('an input that cannot be read (not Ctrl-C) fails the run: it is never taken for the end of the input', async () => {
      const { run } = setUp();
      const { spec } = job(() => ({ ok: true }));
      async function* readFails(): AsyncGenerator<Rec[]> {
        yield records(2);
        throw new Error('EIO: i/o error, read');
      }
      await assert.rejects(deliverInBatches(readFails(), limits(1), dispatch, spec, run), { message: 'EIO: i/o error, read' });
    });

    it('Ctrl-C stops the reading too: no group after it is read', async () => {
      const controller = new AbortController();
      const { run } = setUp({ signal: controller.signal });
      const { spec } = job(() => ({ ok: true }));
      let groupsRead = 0;
      async function* counted(): AsyncGenerator<Rec[]> {
        for (let group = 0; group < 10; group++) {
          groupsRead++;
          if (group === 1) controller.abort();
          yield records(2);
        }
      }
      await deliverInBatches(counted(), limits(1), dispatch, spec, run);
      assert.equal(groupsRead, 2);
    });

    it('Ctrl-C before the run starts: nothing is read or sent', async () => {
      const controller = new AbortController();
      controller.abort();
      const { run } = setUp({ signal: controller.signal });
      const { spec, sent } = job(() => ({ ok: true }));
      let read = false;
      async function* input(): AsyncGenerator<Rec[]> {
        read = true;
        yield records(2);
      }
      assert.deepEqual(await deliverInBatches(input(), limits(1), dispatch, spec, run), { interrupted: true, stoppedBy: undefined });
      assert.equal(read, false);
      assert.deepEqual(sent, []);
    });

    it('a command that does nothing with an acknowledged batch still has it counted', async () => {
      const { run } = setUp();
      const { spec } = job(() => ({ ok: true }), { acknowledged: undefined });
      await deliverInBatches(inGroups(records(3)), limits(1), dispatch, spec, run);
      assert.equal(run.counts.sent, 3);
      assert.equal(run.counts.requests, 3);
    });

    it('Ctrl-C with setAsideUnsent: the records not sent go to the failed file, so it and what was sent make up the input', async () => {
      const controller = new AbortController();
      const { run, lines } = setUp({ signal: controller.signal });
      const { spec, acknowledged } = job((batch) => {
        if (batch[0]!.line === 2) controller.abort();
        return { ok: true };
      }, { setAsideUnsent: true });
      await deliverInBatches(inGroups(records(20)), limits(1), dispatch, spec, run);
      assert.deepEqual([...acknowledged.flat(), ...lines('failed')].sort((a, b) => a - b), records(20).map((r) => r.line));
    });
  });
}

describe('the bulk engine with a checkpoint', () => {
  it('never has more batches sent and not yet checkpointed than --concurrency, even behind a slow one and with a reorder window', async () => {
    const { run } = setUp();
    let acknowledged = 0;
    let checkpointed = 0;
    let started = 0;
    let mostAhead = 0;
    run.checkpoint = { save: async () => void (checkpointed = acknowledged), saveNow: () => true };
    const { spec } = job(() => ({ ok: true }), {
      send: async (batch) => {
        mostAhead = Math.max(mostAhead, ++started - checkpointed);
        // The first batch is slow: the later ones finish before it and wait to be settled in order.
        await new Promise((resolve) => setTimeout(resolve, batch[0]!.line === 1 ? 30 : 1));
        return { ok: true };
      },
      acknowledged: () => void acknowledged++,
    });
    await deliverInBatches(inGroups(records(20)), limits(1), { concurrency: 2, window: 16 }, spec, run);
    assert.equal(acknowledged, 20);
    assert.ok(mostAhead <= 2, `${mostAhead} batches were sent and not yet checkpointed at once: a kill -9 then would send them again`);
  });
});

describe('the bulk engine reading a pipe that stays open (stopReadingAtHalt)', () => {
  it('a halt that comes while reading is paused (a full lane) ends the reading before the next read, not once the pipe gives another line', async () => {
    const { run, lines } = setUp();
    const { spec } = job(() => status(401), { stopReadingAtHalt: true });
    let writerDone!: () => void;
    const writerGoesOn = new Promise<void>((resolve) => (writerDone = resolve));
    // The writer keeps the pipe open after five lines and writes nothing more.
    async function* openPipe() {
      yield records(5);
      await writerGoesOn;
      yield [];
    }
    const delivered = deliverInBatches(openPipe(), limits(1), { lanes: 1, laneOf: () => 0, capacity: 2 }, spec, run);
    const outcome = await Promise.race([delivered, new Promise<'still reading'>((resolve) => setTimeout(resolve, 3000, 'still reading').unref())]);
    writerDone();
    assert.notEqual(outcome, 'still reading', 'the run waited for a line it would not send');
    assert.match(String((outcome as { stoppedBy?: Error }).stoppedBy?.message), /answered 401/);
    assert.deepEqual(lines('failed'), [1, 2, 3, 4, 5]);
  });
});

describe('the bulk engine leaving at once (a second Ctrl-C)', () => {
  /** What resolves `release`, and resolves once it has been started: a write csafe leaves in the middle of. */
  const held = () => {
    let release = () => {};
    let started = () => {};
    const begun = new Promise<void>((resolve) => (started = resolve));
    const write = () => {
      started();
      return new Promise<void>((resolve) => (release = resolve));
    };
    return { write, begun, release: () => release() };
  };
  /** csafe leaves at once while `step` is held (once `meanwhile` is done), then the step ends, and the delivery with it. */
  const leaveAtOnceDuring = async (step: ReturnType<typeof held>, delivered: Promise<unknown>, meanwhile: () => Promise<unknown> = async () => undefined) => {
    await step.begun;
    await meanwhile();
    sayLastWords();
    step.release();
    await delivered;
  };
  /** Turns of the event loop, for the lanes to fill. */
  const turns = async (count: number) => {
    for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('a batch acknowledged, its checkpoint still being written, is no unconfirmed record: the checkpoint holding it is saved now', async () => {
    const { run, lines } = setUp();
    const save = held();
    const saved: number[][] = [];
    const acknowledged: number[] = [];
    run.checkpoint = { save: save.write, saveNow: () => Boolean(saved.push([...acknowledged])) };
    const { spec } = job(() => ({ ok: true }), { acknowledged: (batch) => void acknowledged.push(...batch.map((r) => r.line)) });
    const delivered = deliverInBatches(inGroups(records(2)), limits(2), { concurrency: 1 }, spec, run);
    await leaveAtOnceDuring(save, delivered);
    assert.deepEqual(lines('unconfirmed'), [], 'an acknowledged batch is no unconfirmed one');
    assert.deepEqual(saved, [[1, 2]], 'the checkpoint that holds the acknowledged batch is on disk before csafe leaves');
  });

  it('batches answered and waiting behind one in flight are told apart from it in what csafe says, and all go to the unconfirmed file', async () => {
    const { run, lines, stderr } = setUp();
    const first = held();
    let answered = 0;
    const { spec } = job(() => ({ ok: true }), {
      send: async (batch) => {
        if (batch[0]!.line === 1) return first.write();
        answered++;
        return { ok: true };
      },
    });
    const delivered = deliverInBatches(inGroups(records(3)), limits(1), { concurrency: 3 }, spec, run);
    await leaveAtOnceDuring(first, delivered, async () => {
      while (answered < 2) await turns(1);
    });
    assert.deepEqual(lines('unconfirmed'), [1, 2, 3]);
    assert.match(stderr(), /^left at once: 3 records written to \S+unconfirmed\.jsonl: 1 in flight, its answer not waited for, and 2 answered but not yet recorded \(the service may hold them\)$/m);
  });

  it('over lanes, where the run sets aside what it did not send: the records waiting in the lane, and the one read while it was full, go to the failed file in order', async () => {
    const { run, lines, stderr } = setUp();
    const first = held();
    const { spec } = job(() => ({ ok: true }), { send: async (batch) => (batch[0]!.line === 1 ? first.write() : { ok: true }), setAsideUnsent: true });
    async function* oneAtATime() {
      for (const record of records(10)) yield [record];
    }
    const delivered = deliverInBatches(oneAtATime(), limits(2), { lanes: 1, laneOf: () => 0, capacity: 4 }, spec, run);
    await leaveAtOnceDuring(first, delivered, () => turns(20));
    assert.deepEqual(lines('unconfirmed'), [1, 2]);
    assert.deepEqual(lines('failed').slice(0, 5), [3, 4, 5, 6, 7], 'the 4 records waiting and the one read while the lane was full');
    assert.match(stderr(), /^left at once: 5 records not sent written to \S+failed\.jsonl$/m);
  });

  it('where the run sets aside what it did not send, a batch in flight that is safe to send twice goes to the failed file, and the run is told what is where', async () => {
    const { run, lines, stderr } = setUp();
    const first = held();
    const left: LeftAtOnce[] = [];
    run.leftAtOnce = (what) => void left.push(what);
    const { spec } = job(() => ({ ok: true }), { send: async (batch) => (batch[0]!.line === 1 ? first.write() : { ok: true }), replaySafe: (batch) => batch[0]!.line === 1, setAsideUnsent: true });
    const delivered = deliverInBatches(inGroups(records(4)), limits(2), { lanes: 1, laneOf: () => 0, capacity: 4 }, spec, run);
    await leaveAtOnceDuring(first, delivered, () => turns(20));
    assert.deepEqual(lines('failed'), [1, 2, 3, 4], 'nothing in no file: the batch in flight with the records waiting');
    assert.deepEqual(lines('unconfirmed'), []);
    assert.match(stderr(), /^left at once: 4 records \(2 sent, their answer not waited for: safe to send again\) written to \S+failed\.jsonl$/m);
    assert.deepEqual(left, [{ notDone: [], inFiles: [1, 2, 3, 4], readAll: true, complete: true, unconfirmed: [] }]);
    assert.equal(run.counts.failed, 4, 'counted as failed, as what a run that leaves says counts them');
  });

  it('a batch the service refused, being written to the failed file, is not written to the unconfirmed file too', async () => {
    const { run, lines } = setUp();
    const append = held();
    run.failed = { path: run.failed.path, appendLines: append.write, appendNow: () => assert.fail('written twice to the failed file') } as unknown as FailedFile;
    const { spec } = job(() => status(503));
    const delivered = deliverInBatches(inGroups(records(2)), limits(2), { concurrency: 1 }, spec, run);
    await leaveAtOnceDuring(append, delivered);
    assert.deepEqual(lines('unconfirmed'), [], 'a refused batch is in the failed file alone');
  });
});

describe('the bulk engine: records that keep their order by a key', () => {
  it('once a batch of a key fails, its later records are held back to the failed file, in input order, and other keys go on', async () => {
    const { run, lines, stderr } = setUp();
    const { spec, acknowledged } = job((batch) => (batch.some((r) => r.line === 3) ? status(500) : { ok: true }), {
      replaySafe: () => true,
      order: { keyOf: (record) => record.key, heldNote: 'so its later records are held back too' },
    });
    // One lane: batches of two records, keys alternating, so the failed batch [3, 4] holds back k1 and k0.
    await deliverInBatches(inGroups(records(8, (n) => (n <= 4 ? `k${n % 2}` : 'k9'))), limits(2), { lanes: 1, laneOf: () => 0 }, spec, run);
    assert.deepEqual(lines('failed'), [3, 4]);
    assert.deepEqual(acknowledged.flat(), [1, 2, 5, 6, 7, 8], 'the records of other keys still went');
    assert.match(stderr(), /^in\.jsonl:3-4: a batch of 2 records failed, so its later records are held back too: /m);
  });

  it('a held-back record goes to the failed file unsent, merged in input order with the failed records of its batch', async () => {
    const { run, lines } = setUp();
    const { spec, sent } = job((batch) => (batch.some((r) => r.line === 1) ? status(500) : { ok: true }), {
      replaySafe: () => true,
      order: { keyOf: (record) => record.key, heldNote: 'held' },
    });
    // Key k1 fails on line 1; lines 3 and 5 (k1) are held back unsent, lines 2, 4, 6 (k0) go.
    await deliverInBatches(inGroups(records(6)), limits(1), { lanes: 1, laneOf: () => 0 }, spec, run);
    assert.deepEqual(lines('failed'), [1, 3, 5]);
    assert.deepEqual(sent.flat(), [1, 2, 4, 6]);
  });

  it('a batch holding both held-back records and records that then fail puts them all in the failed file in input order', async () => {
    const { run, lines } = setUp();
    // Lines 1-3 are key a, 4-6 key b; batches of two: [1,2] fails (a held), [3,4] sends 4 alone and it fails (b held), [5,6] all held.
    const { spec, sent } = job((batch) => (batch.some((r) => r.line === 1 || r.line === 4) ? status(500) : { ok: true }), {
      replaySafe: () => true,
      order: { keyOf: (record) => record.key, heldNote: 'held' },
    });
    await deliverInBatches(inGroups(records(6, (n) => (n <= 3 ? 'a' : 'b'))), limits(2), { lanes: 1, laneOf: () => 0 }, spec, run);
    assert.deepEqual(sent, [[1, 2], [4]]);
    assert.deepEqual(lines('failed'), [1, 2, 3, 4, 5, 6]);
    assert.equal(run.counts.failed, 6);
  });
});
