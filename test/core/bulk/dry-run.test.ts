import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planBatches } from '../../../src/core/bulk/dry-run.js';
import { DryRunEnded, DryRunPlan, type PlannedRequest } from '../../../src/core/http/dry-run.js';

/** Records as a bulk command reads them: groups (a chunk of input's records), one at a time. */
async function* groups<T>(...chunks: T[][]): AsyncGenerator<T[]> {
  for (const chunk of chunks) yield chunk;
}

const request = (path: string): PlannedRequest => ({ method: 'POST', url: `http://127.0.0.1${path}`, headers: { authorization: 'Bearer sk_…' } });

/** Runs planBatches to its end (it always ends the run); returns the plan, the batch sent and the error that ended it. */
async function planned<T>(records: AsyncIterable<T[]>, limits: { maxItems: number; maxBytes: number; sizeOf: (record: T) => number }, laneOf?: (record: T) => number) {
  const plan = new DryRunPlan();
  const sent: T[][] = [];
  let ended: unknown;
  try {
    await planBatches(plan, records, limits, 'event', async (batch) => {
      sent.push(batch);
      throw plan.stop(request('/v1/events'));
    }, laneOf);
  } catch (error) {
    ended = error;
  }
  return { plan, sent, ended };
}

describe('DryRunPlan', () => {
  it('counts the requests it was shown, or the total a bulk run told it, and prints both as JSON', () => {
    const plan = new DryRunPlan();
    plan.record(request('/v1/data/shop/settings'));
    assert.equal(plan.requestCount, 1);
    const ended = plan.stop(request('/v1/data/shop/import'));
    assert.ok(ended instanceof DryRunEnded);
    assert.equal(ended.plan, plan);
    assert.equal(ended.message, 'dry run: nothing was sent');
    assert.equal(plan.requestCount, 2);
    assert.deepEqual(plan.toJSON(), { dry_run: true, request_count: 2, requests: [request('/v1/data/shop/settings'), request('/v1/data/shop/import')] });
    plan.total = { requests: 40, records: { count: 3_999, noun: 'object' } };
    assert.deepEqual(plan.toJSON(), { dry_run: true, request_count: 40, record_count: 3_999, records: 'objects', requests: plan.requests });
    plan.total = { requests: 7 };
    assert.deepEqual(Object.keys(plan.toJSON()), ['dry_run', 'request_count', 'requests'], 'no record count when none was told');
  });

  it('ends a run that would send nothing with the plan, no request in it', () => {
    const plan = new DryRunPlan();
    const ended = plan.stopEmpty();
    assert.ok(ended instanceof DryRunEnded);
    assert.deepEqual(plan.requests, []);
    assert.equal(plan.requestCount, 0);
  });
});

describe('planBatches', () => {
  const bytes = (record: string) => record.length;

  it('sends the first batch a real run would send, and counts every request and record', async () => {
    const { plan, sent, ended } = await planned(groups(['aa', 'bb', 'cc'], ['dd', 'ee'], ['ff', 'gg']), { maxItems: 3, maxBytes: 100, sizeOf: bytes });
    assert.deepEqual(sent, [['aa', 'bb', 'cc']]);
    assert.deepEqual(plan.total, { requests: 3, records: { count: 7, noun: 'event' } });
    assert.ok(ended instanceof DryRunEnded);
    assert.equal(plan.requestCount, 3);
  });

  it('cuts batches by bytes as a real run does: an item that would overflow starts the next, one too big goes alone', async () => {
    const { plan, sent } = await planned(groups(['aaaa', 'bbbb', 'ccc'], ['x'.repeat(20), 'dd']), { maxItems: 10, maxBytes: 10, sizeOf: bytes });
    assert.deepEqual(sent, [['aaaa', 'bbbb']]);
    // [aaaa bbbb] [ccc] [xxxx…] [dd]
    assert.deepEqual(plan.total, { requests: 4, records: { count: 5, noun: 'event' } });
  });

  it('an input that fills batches exactly has no empty request after them', async () => {
    const { plan } = await planned(groups(['a', 'b'], ['c', 'd']), { maxItems: 2, maxBytes: 100, sizeOf: bytes });
    assert.deepEqual(plan.total, { requests: 2, records: { count: 4, noun: 'event' } });
  });

  it('cuts per lane: the batch sent holds only the first record’s lane, and each lane’s last batch is a request of its own', async () => {
    const lane = (record: string) => Number(record[0]);
    const { plan, sent } = await planned(groups(['1a', '2a', '1b', '2b'], ['1c', '2c', '1d']), { maxItems: 2, maxBytes: 100, sizeOf: bytes }, lane);
    assert.deepEqual(sent, [['1a', '1b']], 'lane 1 is full after 1b; 1c starts its next batch');
    // lane 1: [1a 1b] [1c 1d]; lane 2: [2a 2b] [2c]
    assert.deepEqual(plan.total, { requests: 4, records: { count: 7, noun: 'event' } });
  });

  it('a first lane that never fills sends all of its records', async () => {
    const lane = (record: string) => Number(record[0]);
    const { sent, plan } = await planned(groups(['1a', '2a', '2b', '2c', '1b']), { maxItems: 2, maxBytes: 100, sizeOf: bytes }, lane);
    assert.deepEqual(sent, [['1a', '1b']]);
    assert.deepEqual(plan.total, { requests: 3, records: { count: 5, noun: 'event' } });
  });

  it('with nothing to send, sends nothing and ends the run with the totals', async () => {
    const { plan, sent, ended } = await planned(groups<string>([], []), { maxItems: 2, maxBytes: 100, sizeOf: bytes });
    assert.deepEqual(sent, []);
    assert.ok(ended instanceof DryRunEnded);
    assert.deepEqual(plan.total, { requests: 0, records: { count: 0, noun: 'event' } });
    assert.deepEqual(plan.requests, []);
  });
});
