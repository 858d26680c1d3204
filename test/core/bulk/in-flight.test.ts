import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InFlight } from '../../../src/core/bulk/in-flight.js';

/** A request that settles when told to. */
function pendingRequest() {
  const handle = { resolve: (_value: string) => {}, reject: (_error: Error) => {} };
  const promise = new Promise<string>((resolve, reject) => Object.assign(handle, { resolve, reject }));
  /** Sent at once, as a request without --max-rate is. */
  const request = (sending: () => void) => {
    sending();
    return promise;
  };
  return { ...handle, request, promise };
}

describe('InFlight', () => {
  it('counts each request from its start until it is answered or fails, and hands back its outcome', async () => {
    const inFlight = new InFlight();
    const [a, b] = [pendingRequest(), pendingRequest()];
    const answered = inFlight.run(a.request);
    const failed = inFlight.run(b.request).catch((error: unknown) => error);
    assert.equal(inFlight.count, 2);
    a.resolve('ok');
    assert.equal(await answered, 'ok');
    assert.equal(inFlight.count, 1);
    const error = new Error('cut');
    b.reject(error);
    assert.equal(await failed, error);
    assert.equal(inFlight.count, 0);
  });

  it('a request still waiting its turn (--max-rate) is awaited, but not counted until it is sent', async () => {
    const inFlight = new InFlight();
    const turn = pendingRequest();
    let send = () => {};
    const request = inFlight.run(async (sending) => {
      await new Promise<void>((resolve) => (send = resolve));
      sending();
      return turn.promise;
    });
    let done = false;
    const settling = inFlight.settled().then(() => (done = true));
    assert.equal(inFlight.count, 0, 'not sent yet');
    send();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(inFlight.count, 1);
    assert.equal(done, false);
    turn.resolve('ok');
    assert.equal(await request, 'ok');
    await settling;
    assert.equal(inFlight.count, 0);
  });

  it('settled() waits for every request in flight, failed ones too, and no longer', async () => {
    const inFlight = new InFlight();
    await inFlight.settled();
    const [a, b] = [pendingRequest(), pendingRequest()];
    void inFlight.run(a.request);
    void inFlight.run(b.request).catch(() => undefined);
    let done = false;
    const settling = inFlight.settled().then(() => (done = true));
    a.resolve('ok');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(done, false, 'one is still in flight');
    b.reject(new Error('cut'));
    await settling;
    assert.equal(inFlight.count, 0);
  });
});
