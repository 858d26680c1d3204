import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { InputError, InterruptedError } from '../../../src/core/errors.js';
import { createIOStreams, type IOStreams } from '../../../src/core/terminal/io.js';
import { rereadableInput, spoolToTempFile, withUploadableInput } from '../../../src/core/input/spool.js';
import { exitedPid, tempDir } from '../../helpers/cli.js';

/** Runs `body` with the system temporary directory pointed at a fresh one, to see what is left in it. */
async function inOwnTmpdir(body: (tmp: string) => Promise<void>): Promise<void> {
  const saved = process.env.TMPDIR;
  const tmp = tempDir();
  process.env.TMPDIR = tmp;
  try {
    await body(tmp);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/** IOStreams whose stdin is `stdin`, stderr `stderr`, with --progress when asked. */
const ioOver = (stdin: Readable, stderr = new PassThrough(), progress = false): IOStreams =>
  createIOStreams({ stdin, stdout: new PassThrough(), stderr, env: {}, progress });

const text = async (stream: NodeJS.ReadableStream) => {
  let out = '';
  for await (const chunk of stream) out += chunk;
  return out;
};

describe('spoolToTempFile', () => {
  it('copies the stream to a private file, removed with its directory', async () => {
    await inOwnTmpdir(async (tmp) => {
      const spool = await spoolToTempFile(Readable.from(['ab', 'cd']));
      assert.equal(dirname(dirname(spool.path)), tmp);
      assert.match(spool.path, /csafe-spool-[^/]+\/input$/);
      assert.equal(readFileSync(spool.path, 'utf8'), 'abcd');
      assert.equal(statSync(spool.path).mode & 0o777, 0o600);
      await spool.remove();
      assert.deepEqual(readdirSync(tmp), []);
    });
  });

  it("removes what ended runs of this host left, never another host's (one TMPDIR shared by containers)", async () => {
    await inOwnTmpdir(async (tmp) => {
      const first = await spoolToTempFile(Readable.from(['ab']));
      const [ourTag] = /csafe-spool-([0-9a-f]{8})-/.exec(first.path)!.slice(1);
      await first.remove();
      const dead = exitedPid();
      const [ours, theirs] = [`csafe-spool-${ourTag}-${dead}-x1`, `csafe-spool-${ourTag === '00000000' ? '11111111' : '00000000'}-${dead}-x2`];
      for (const name of [ours, theirs]) mkdirSync(join(tmp, name));
      const next = await spoolToTempFile(Readable.from(['cd']));
      await next.remove();
      assert.deepEqual(readdirSync(tmp), [theirs]);
    });
  });

  it('removes the copy and reports InterruptedError when aborted', async () => {
    await inOwnTmpdir(async (tmp) => {
      const controller = new AbortController();
      const input = new PassThrough();
      input.write('partial');
      const spooling = spoolToTempFile(input, controller.signal);
      setImmediate(() => controller.abort());
      await assert.rejects(spooling, InterruptedError);
      assert.deepEqual(readdirSync(tmp), []);
    });
  });

  it('removes the copy and passes on a read error', async () => {
    await inOwnTmpdir(async (tmp) => {
      const failure = new Error('read failed');
      const input = new Readable({
        read() {
          this.destroy(failure);
        },
      });
      await assert.rejects(spoolToTempFile(input, new AbortController().signal), (error) => error === failure);
      assert.deepEqual(readdirSync(tmp), []);
      const unsignalled = new Readable({
        read() {
          this.destroy(failure);
        },
      });
      await assert.rejects(spoolToTempFile(unsignalled), (error) => error === failure, 'and with no signal to ask');
      assert.deepEqual(readdirSync(tmp), []);
    });
  });

  it("passes on an input's own failure, or early close, as the input's: even one that comes before the copy begins", async () => {
    await inOwnTmpdir(async (tmp) => {
      const failure = Object.assign(new Error('device gone'), { code: 'ENXIO' });
      const failing = new PassThrough();
      // Fails while the directory is being made: an 'error' nobody heard would end the process.
      setImmediate(() => failing.destroy(failure));
      await assert.rejects(spoolToTempFile(failing), (error) => error === failure);
      const closed = new PassThrough();
      closed.write('part');
      setImmediate(() => closed.destroy());
      await assert.rejects(spoolToTempFile(closed), (error: NodeJS.ErrnoException) => error.code === 'ERR_STREAM_PREMATURE_CLOSE');
      assert.deepEqual(readdirSync(tmp), []);
    });
  });

  it('with no temporary directory, says so and closes the input (a pipe whose writer goes on must not keep it waiting)', async () => {
    const saved = process.env.TMPDIR;
    const gone = join(tempDir(), 'gone');
    process.env.TMPDIR = gone;
    try {
      const input = new PassThrough();
      await assert.rejects(spoolToTempFile(input), (error: Error) => error.message === `${gone}: could not write a temporary file: no such directory (ENOENT)`);
      assert.equal(input.destroyed, true);
      const failure = new Error('read failed');
      const failed = new PassThrough();
      failed.destroy(failure);
      await assert.rejects(spoolToTempFile(failed), (error) => error === failure, "an input that failed first is the input's failure");
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});

describe('rereadableInput', () => {
  it('keeps a regular file where it is, under its own name', async () => {
    const path = join(tempDir(), 'in.jsonl');
    writeFileSync(path, 'x');
    const input = await rereadableInput(path, ioOver(new PassThrough()), new AbortController().signal);
    assert.equal(input.path, path);
    assert.equal(input.source.name, path);
    assert.equal(await text(input.source.open()), 'x');
    await input.remove();
    assert.equal(existsSync(path), true);
  });

  it('copies stdin once, named stdin, readable again and again', async () => {
    await inOwnTmpdir(async (tmp) => {
      const input = await rereadableInput('-', ioOver(Readable.from(['line 1\n'])), new AbortController().signal);
      assert.equal(input.source.name, 'stdin');
      assert.notEqual(input.path, '-');
      assert.equal(await text(input.source.open()), 'line 1\n');
      assert.equal(await text(input.source.open()), 'line 1\n');
      await input.remove();
      assert.deepEqual(readdirSync(tmp), []);
    });
  });

  it('says how many bytes of stdin it has read (here with --progress into a log)', async () => {
    const stderr = new PassThrough();
    let log = '';
    stderr.on('data', (chunk) => (log += chunk));
    const input = await rereadableInput('-', ioOver(Readable.from(['x'.repeat(1500)]), stderr, true), new AbortController().signal);
    await input.remove();
    assert.equal(log, 'Reading stdin…\nReading stdin: 1.5 kB\n');
  });

  it('copies a device, and names a directory as the input given', async () => {
    const device = await rereadableInput('/dev/null', ioOver(new PassThrough()), new AbortController().signal);
    assert.equal(device.source.name, '/dev/null');
    assert.notEqual(device.path, '/dev/null');
    assert.equal(await text(device.source.open()), '');
    await device.remove();
    const dir = join(tempDir(), 'folder');
    mkdirSync(dir);
    await assert.rejects(rereadableInput(dir, ioOver(new PassThrough()), new AbortController().signal), (error) => error instanceof InputError && error.message === `${dir}: is a directory, expected a file`);
  });

  it('keeps an interruption as it is', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(rereadableInput('-', ioOver(new PassThrough()), controller.signal), InterruptedError);
  });
});

describe('withUploadableInput', () => {
  it('gives stdin as a file with its size, and removes the copy even when the upload fails', async () => {
    await inOwnTmpdir(async (tmp) => {
      let seen: { name: string; size: number; text: string } | undefined;
      const failure = new Error('upload failed');
      await assert.rejects(withUploadableInput('-', ioOver(Readable.from(['line 1\n'])), new AbortController().signal, async (source, file) => {
        seen = { name: source.name, size: file.size, text: readFileSync(file.path, 'utf8') };
        throw failure;
      }), (error) => error === failure);
      assert.deepEqual(seen, { name: 'stdin', size: 7, text: 'line 1\n' });
      assert.deepEqual(readdirSync(tmp), []);
    });
  });
});
