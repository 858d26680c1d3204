import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { InterruptedError, TerminatedError } from '../../../src/core/errors.js';
import { readAll, readHidden } from '../../../src/core/terminal/prompt.js';
import { bufferIO } from '../../helpers/io.js';

/** A terminal's stdin: records raw-mode switches and whether it is paused. */
function terminal() {
  const stdin = Object.assign(new PassThrough(), { rawModes: [] as boolean[] });
  Object.assign(stdin, { setRawMode: (on: boolean) => stdin.rawModes.push(on) });
  const streams = bufferIO();
  return { io: { ...streams.io, stdin }, stdin, stderr: streams.stderr };
}

describe('readHidden', () => {
  it('reads up to Enter without echo, applying backspace and dropping control characters', async () => {
    const { io, stdin, stderr } = terminal();
    const reading = readHidden(io, 'API key: ');
    assert.equal(stderr(), 'API key: ');
    stdin.write('ab\u007fc\bd\u0001e f\rignored');
    assert.equal(await reading, 'ade f');
    assert.deepEqual(stdin.rawModes, [true, false]);
    assert.equal(stdin.listenerCount('data'), 0);
    assert.equal(stdin.isPaused(), true);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(stderr(), 'API key: \n');
  });

  it('ends at a newline too, and in a later chunk; backspace takes one character off', async () => {
    const { io, stdin } = terminal();
    const reading = readHidden(io, '');
    stdin.write('se');
    stdin.write('crexyz\b\b\u007ft\n');
    assert.equal(await reading, 'secret');
  });

  it('stops with InterruptedError on Ctrl-C, leaving raw mode', async () => {
    const { io, stdin } = terminal();
    const reading = readHidden(io, '');
    stdin.write('ab\u0003');
    await assert.rejects(reading, InterruptedError);
    assert.deepEqual(stdin.rawModes, [true, false]);
  });

  it('ends at Ctrl-D (end of input) as at Enter, instead of ignoring it', async () => {
    const { io, stdin } = terminal();
    const reading = readHidden(io, '');
    stdin.write('\u0004');
    assert.equal(await reading, '');
    assert.deepEqual(stdin.rawModes, [true, false]);
  });

  it('ends when stdin ends (Ctrl-D typed before the prompt, a closed terminal) instead of waiting for ever', async () => {
    const { io, stdin } = terminal();
    const reading = readHidden(io, '');
    stdin.end('ab');
    assert.equal(await reading, 'ab');
    assert.equal(stdin.listenerCount('end'), 0);
  });

  it('stops on SIGTERM (the run aborted) instead of waiting for Enter, leaving raw mode', async () => {
    const { io, stdin } = terminal();
    const stop = new AbortController();
    const reading = readHidden(io, '', stop.signal);
    stdin.write('ab');
    stop.abort('SIGTERM');
    await assert.rejects(reading, TerminatedError);
    assert.deepEqual(stdin.rawModes, [true, false]);
    assert.equal(stdin.listenerCount('data'), 0);
  });

  it('stops at once when the run was stopped before the prompt, and leaves no listener behind after a signal', async () => {
    const { io, stdin } = terminal();
    const stopped = new AbortController();
    stopped.abort('SIGTERM');
    await assert.rejects(readHidden(io, '', stopped.signal), TerminatedError);
    const later = new AbortController();
    const reading = readHidden(io, '', later.signal);
    later.abort('SIGTERM');
    await assert.rejects(reading, TerminatedError);
    assert.equal(stdin.listenerCount('end'), 0);
  });
});

describe('readAll', () => {
  it('joins every chunk as text', async () => {
    assert.equal(await readAll(Readable.from([Buffer.from('ab'), Buffer.from('c')])), 'abc');
    assert.equal(await readAll(Readable.from([])), '');
  });
});
