import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InFlight } from '../../../src/core/bulk/in-flight.js';
import { interruptedRun, reportInterruption, resendCommandLine, resendHint, sayAwaitedAnswersOnInterrupt } from '../../../src/core/cli/resume.js';
import { bufferIO } from '../../helpers/io.js';
import { tempDir } from '../../helpers/cli.js';

describe('what an interrupted bulk run says', () => {
  it('counts what it sent, in how many requests, what failed (naming the file only when something did) and what is unconfirmed', () => {
    assert.equal(interruptedRun({ sent: 120, requests: 120, failed: 2, unconfirmed: 0 }, 'line', 'failed.jsonl'), '120 lines sent in 120 requests, 2 failed (in failed.jsonl)');
    assert.equal(interruptedRun({ sent: 1, requests: 1, failed: 0, unconfirmed: 0 }, 'event', 'failed.jsonl'), '1 event sent in 1 request, 0 failed');
    assert.equal(interruptedRun({ sent: 0, requests: 0, failed: 0, unconfirmed: 3 }, 'object', 'failed.jsonl'), '0 objects sent in 0 requests, 0 failed, 3 unconfirmed');
  });

  it('tells a run with a checkpoint to run the same command again, and one without to resend the failed file', () => {
    assert.equal(resendHint('csafe events send failed.jsonl', true), 'run the same command again to send them (the file is the record of what failed)');
    assert.equal(resendHint('csafe events send failed.jsonl', false), 'resend them with `csafe events send failed.jsonl`');
  });

  it('resends a failed file the run started as it is, and of one that held earlier records, only the bytes this run appended', () => {
    const command = (input: string) => `csafe events send ${input}`;
    assert.equal(resendCommandLine({ path: 'failed.jsonl', priorBytes: 0, appendedBytes: 40 }, command), 'csafe events send failed.jsonl');
    const dir = tempDir();
    const path = join(dir, 'the failed.jsonl');
    writeFileSync(path, '{"old":1}\n{"old":2}\n{"new":3}\n{"new":4}\n');
    const line = resendCommandLine({ path, priorBytes: 20, appendedBytes: 20 }, command);
    assert.equal(line, `tail -c +21 '${path}' | head -c 20 | csafe events send -`);
    // Run as printed, the pipe gives the command exactly the records this run appended.
    const piped = execFileSync('/bin/sh', ['-c', line.replace(/ \| csafe events send -$/, '')], { encoding: 'utf8' });
    assert.equal(piped, '{"new":3}\n{"new":4}\n');
  });

  it('writes what it did, the command that continues it, and the hint when there is one, on stderr', () => {
    const { io, stdout, stderr } = bufferIO();
    reportInterruption(io, '3 lines sent', 'csafe classify --batch in.jsonl --from-line 4');
    reportInterruption(io, '0 lines sent', 'csafe x', 'a hint');
    assert.equal(stdout(), '');
    assert.match(stderr(), /interrupted: 3 lines sent\n.*continue with: csafe classify --batch in\.jsonl --from-line 4\n.*interrupted: 0 lines sent\n.*continue with: csafe x\n.*hint: a hint\n$/s);
    assert.equal(stderr().match(/hint:/g)?.length, 1);
  });

  it('says why it waits when the reader of stdout went away', async () => {
    const { io, stderr } = bufferIO();
    const inFlight = new InFlight();
    let answer = () => {};
    const request = inFlight.run((sending) => {
      sending();
      return new Promise<void>((resolve) => (answer = resolve));
    });
    const stop = new AbortController();
    const stopListening = sayAwaitedAnswersOnInterrupt(stop.signal, io, inFlight);
    stop.abort('EPIPE');
    assert.match(stderr(), /^the reader of stdout went away: waiting for the answers to 1 request in flight \(Ctrl-C to leave without them\)$/m);
    assert.doesNotMatch(stderr(), /^interrupted/m);
    answer();
    await request;
    stopListening();
  });

  it('says at Ctrl-C how many answers it waits for, once, nothing with none in flight, and nothing once it stopped listening', async () => {
    const waiting = bufferIO();
    const inFlight = new InFlight();
    let answer = () => {};
    const request = inFlight.run((sending) => {
      sending();
      return new Promise<void>((resolve) => (answer = resolve));
    });
    const interrupt = new AbortController();
    const stop = sayAwaitedAnswersOnInterrupt(interrupt.signal, waiting.io, inFlight);
    interrupt.abort();
    interrupt.signal.dispatchEvent(new Event('abort'));
    assert.equal(waiting.stderr().match(/interrupted: waiting for the answers to 1 request in flight \(Ctrl-C again to leave without them\)/g)?.length, 1);
    answer();
    await request;
    stop();

    const idle = bufferIO();
    const quiet = new AbortController();
    sayAwaitedAnswersOnInterrupt(quiet.signal, idle.io, new InFlight());
    quiet.abort();
    assert.equal(idle.stderr(), '');

    const stopped = bufferIO();
    const busy = new InFlight();
    let finish = () => {};
    const pending = busy.run((sending) => {
      sending();
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const later = new AbortController();
    sayAwaitedAnswersOnInterrupt(later.signal, stopped.io, busy)();
    later.abort();
    assert.equal(stopped.stderr(), '');
    finish();
    await pending;
  });
});
