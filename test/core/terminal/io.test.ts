import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { CsafeError } from '../../../src/core/errors.js';
import { colorEnabled, createIOStreams, isBrokenPipe, openIOStreams, type IOSettings } from '../../../src/core/terminal/io.js';
import { renderTable } from '../../../src/core/terminal/output.js';

function streams(options: Partial<IOSettings> & { tty?: boolean } = {}) {
  let stdout = '';
  let stderr = '';
  const out = Object.assign(new PassThrough(), { isTTY: options.tty });
  const err = Object.assign(new PassThrough(), { isTTY: options.tty });
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  const io = createIOStreams({ stdin: new PassThrough(), stdout: out, stderr: err, env: {}, Chalk, ...options });
  return { io, stdout: () => stdout, stderr: () => stderr };
}

describe('colorEnabled', () => {
  it('follows --no-color, then NO_COLOR, then FORCE_COLOR, then the terminal', () => {
    assert.equal(colorEnabled(true, {}), true);
    assert.equal(colorEnabled(false, {}), false);
    assert.equal(colorEnabled(true, {}, false), false);
    assert.equal(colorEnabled(true, { NO_COLOR: '1' }), false);
    assert.equal(colorEnabled(true, { NO_COLOR: '' }), true);
    assert.equal(colorEnabled(false, { FORCE_COLOR: '1' }), true);
    assert.equal(colorEnabled(false, { FORCE_COLOR: '' }), true);
    assert.equal(colorEnabled(true, { FORCE_COLOR: '0' }), false);
    assert.equal(colorEnabled(true, { FORCE_COLOR: 'false' }), false);
    assert.equal(colorEnabled(false, { NO_COLOR: '1', FORCE_COLOR: '1' }), false);
    assert.equal(colorEnabled(false, { FORCE_COLOR: '1' }, false), false);
    assert.equal(colorEnabled(true, { TERM: 'dumb' }), false);
    assert.equal(colorEnabled(true, { TERM: 'xterm' }), true);
  });
});

describe('openIOStreams', () => {
  const open = async (env: NodeJS.ProcessEnv) => {
    let stdout = '';
    let stderr = '';
    const out = new PassThrough().on('data', (c) => (stdout += c));
    const err = new PassThrough().on('data', (c) => (stderr += c));
    const io = await openIOStreams({ stdin: new PassThrough(), stdout: out, stderr: err, env });
    return { io, stdout: () => stdout, stderr: () => stderr };
  };

  it('loads chalk when colour is on: FORCE_COLOR=1 makes an error line red, CSAFE_FORCE_TTY=1 a table header bold', async () => {
    const forced = await open({ FORCE_COLOR: '1' });
    forced.io.error('error: boom');
    assert.equal(forced.stderr(), '\u001b[31merror: boom\u001b[39m\n');
    const terminal = await open({ CSAFE_FORCE_TTY: '1' });
    assert.match(renderTable([{ id: 'a' }], [{ header: 'ID', value: (r) => r.id }], terminal.io), /\u001b\[1mID\u001b\[22m/);
  });

  it('loads chalk when only stderr can have colour: errors red on the terminal, data plain in the pipe', async () => {
    let stderr = '';
    const err = Object.assign(new PassThrough(), { isTTY: true }).on('data', (c) => (stderr += c));
    const io = await openIOStreams({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: err, env: { TERM: 'xterm-256color' } });
    io.error('error: boom');
    assert.equal(stderr, '\u001b[31merror: boom\u001b[39m\n');
    assert.equal(io.outColor.red('x'), 'x');
  });

  it('gives plain text when no stream can have colour, and createIOStreams refuses colour without chalk', async () => {
    const pipe = await open({});
    pipe.io.error('error: boom');
    assert.equal(pipe.stderr(), 'error: boom\n');
    assert.equal(pipe.io.outColor.red.bold('x'), 'x');
    assert.throws(() => createIOStreams({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: { FORCE_COLOR: '1' } }), /openIOStreams/);
  });
});

describe('createIOStreams', () => {
  it('reads the TTY flags of each stream, or CSAFE_FORCE_TTY=1 for both outputs', () => {
    const plain = streams({ stdin: Object.assign(new PassThrough(), { isTTY: true }) }).io;
    assert.deepEqual([plain.stdinIsTTY, plain.stdoutIsTTY, plain.stderrIsTTY, plain.animate], [true, false, false, false]);
    const forced = streams({ env: { CSAFE_FORCE_TTY: '1' } }).io;
    assert.deepEqual([forced.stdinIsTTY, forced.stdoutIsTTY, forced.stderrIsTTY, forced.animate], [false, true, true, true]);
    assert.equal(streams({ env: { CSAFE_FORCE_TTY: 'yes' } }).io.stderrIsTTY, false);
    assert.deepEqual([streams({ quiet: true, verbose: true }).io.quiet, streams({}).io.quiet, streams({ verbose: true }).io.verbose, streams({}).io.verbose], [true, false, true, false]);
  });

  it('colours stdout and stderr each by its own terminal', () => {
    const out = Object.assign(new PassThrough(), { isTTY: true });
    const io = createIOStreams({ stdin: new PassThrough(), stdout: out, stderr: new PassThrough(), env: {}, Chalk });
    assert.equal(io.outColor.level, 1);
    assert.equal(io.errColor.level, 0);
    assert.equal(streams({ tty: true, color: false }).io.outColor.level, 0);
  });

  it('writes notes unless quiet, warnings always, traces only when verbose, dimmed on a terminal', () => {
    const plain = streams({ verbose: false });
    plain.io.note('n\u001b');
    plain.io.warn('w');
    plain.io.error('e');
    plain.io.trace('t');
    assert.equal(plain.stderr(), 'n\u001b\nw\ne\n', 'a pipe gets the text as it is');
    const verbose = streams({ tty: true, verbose: true, quiet: true, env: { FORCE_COLOR: '1' } });
    verbose.io.note('hidden');
    verbose.io.warn('w\u0007');
    verbose.io.trace('t\u0007');
    assert.equal(verbose.stderr(), 'w^G\n\u001b[2mt^G\u001b[22m\n');
  });

  it('builds a trace line given as a function only when verbose', () => {
    let built = 0;
    const line = () => `line ${++built}`;
    const plain = streams({ verbose: false });
    plain.io.trace(line);
    assert.equal(built, 0);
    const verbose = streams({ verbose: true });
    verbose.io.trace(line);
    assert.equal(verbose.stderr(), 'line 1\n');
  });

  it('writes data to stdout only, waiting for a full pipe to drain', async () => {
    const chunks: string[] = [];
    const slow = new Writable({
      highWaterMark: 1,
      write(chunk, _encoding, done) {
        setTimeout(() => {
          chunks.push(String(chunk));
          done();
        }, 5);
      },
    });
    const io = createIOStreams({ stdin: new PassThrough(), stdout: slow, stderr: new PassThrough(), env: {} });
    await io.out('ab');
    assert.deepEqual(chunks, ['ab'], 'out() returned only after the pipe drained');
    await io.out('c');
    await io.flush();
    assert.deepEqual(chunks, ['ab', 'c', ''], 'flush() returned after its empty write came through');
  });

  it('turns a failed stdout into one line, and leaves EPIPE as it is', async () => {
    const failing = (code: string) =>
      new Writable({
        write(_chunk, _encoding, done) {
          done(Object.assign(new Error(`write ${code}`), { code }));
        },
      });
    const full = createIOStreams({ stdin: new PassThrough(), stdout: failing('ENOSPC'), stderr: new PassThrough(), env: {} });
    full.stdout.on('error', () => undefined);
    await full.out('x').catch(() => undefined);
    await assert.rejects(full.flush(), (error: unknown) => error instanceof CsafeError && error.message === 'cannot write to stdout: write ENOSPC' && (error.cause as NodeJS.ErrnoException).code === 'ENOSPC');
    await assert.rejects(full.out('y'), (error: unknown) => error instanceof CsafeError && error.message === 'cannot write to stdout: write ENOSPC');
    const closed = createIOStreams({ stdin: new PassThrough(), stdout: failing('EPIPE'), stderr: new PassThrough(), env: {} });
    closed.stdout.on('error', () => undefined);
    await closed.out('x').catch(() => undefined);
    await assert.rejects(closed.flush(), (error: unknown) => !(error instanceof CsafeError) && (error as NodeJS.ErrnoException).code === 'EPIPE');
    assert.deepEqual([undefined, null, 'EPIPE', new Error('x')].map(isBrokenPipe), [false, false, false, false], 'what is not an error with a code is no broken pipe');
  });

  it('escapes DEL and C1 controls in text for a terminal (valid JSON still), and writes text in a pipe and bytes anywhere as they are', async () => {
    const json = JSON.stringify({ text: 'csi \u009b31m, nel \u0085, del \u007f, esc \u001b' }) + '\n';
    const terminal = streams({ tty: true });
    await terminal.io.out(json);
    assert.equal(terminal.stdout(), '{"text":"csi \\u009b31m, nel \\u0085, del \\u007f, esc \\u001b"}\n');
    assert.deepEqual(JSON.parse(terminal.stdout()), JSON.parse(json));
    await terminal.io.out(Buffer.from('\u0085'));
    assert.ok(terminal.stdout().endsWith('\u0085'), 'bytes are left to whoever made them');
    const pipe = streams();
    await pipe.io.out(json);
    assert.equal(pipe.stdout(), json);
  });

  it('flushes nothing on a destroyed stdout', async () => {
    const out = new PassThrough();
    out.destroy();
    const io = createIOStreams({ stdin: new PassThrough(), stdout: out, stderr: new PassThrough(), env: {} });
    await io.flush();
  });
});

describe('createIOStreams: progress on stderr', () => {
  it('takes the width of stderr from the terminal, else COLUMNS, else leaves it unknown', () => {
    const sized = streams({ tty: true });
    Object.assign(sized.io.stderr, { columns: 40 });
    assert.equal(sized.io.stderrColumns, 40);
    Object.assign(sized.io.stderr, { columns: 100 });
    assert.equal(sized.io.stderrColumns, 100, 'read again after a resize');
    assert.equal(streams({ env: { COLUMNS: '52' } }).io.stderrColumns, 52);
    assert.equal(streams({ env: { COLUMNS: 'wide' } }).io.stderrColumns, undefined);
    for (const columns of ['0', '-40', '52.5']) assert.equal(streams({ env: { COLUMNS: columns } }).io.stderrColumns, undefined, `COLUMNS=${columns}`);
    assert.equal(streams().io.stderrColumns, undefined);
  });

  it('gives periodic progress lines only with --progress, on a stderr that is not a terminal, without --quiet', () => {
    const cases = [
      [{ tty: false }, false],
      [{ tty: false, progress: true }, true],
      [{ tty: false, progress: true, quiet: true }, false],
      [{ tty: true, progress: true }, false],
    ] as const;
    for (const [options, expected] of cases) assert.equal(streams(options).io.progressLines, expected, JSON.stringify(options));
  });
});
