import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InputError, UsageError } from '../../../src/core/errors.js';
import { destinationOf, downloadFormat, writeDownloadedBytes, writeDownloadedJson } from '../../../src/core/download/destination.js';
import { tempDir } from '../../helpers/cli.js';
import { bufferIO } from '../../helpers/io.js';

async function* chunksOf(...chunks: string[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield Buffer.from(chunk);
}

async function* textOf(...chunks: string[]): AsyncGenerator<string> {
  yield* chunks;
}

describe('downloadFormat', () => {
  it('prints the file as it came unless JSON was asked for; a table or TSV of it is refused, naming the command and the file', () => {
    assert.equal(downloadFormat({}, 'batch download', 'the result is CSV'), undefined);
    assert.equal(downloadFormat({ json: true, output: 'table' }, 'batch download', 'the result is CSV'), 'json');
    assert.equal(downloadFormat({ output: 'ndjson' }, 'batch download', 'the result is CSV'), 'ndjson');
    assert.equal(downloadFormat({ output: 'json' }, 'batch download', 'the result is CSV'), 'json');
    for (const format of ['table', 'tsv']) {
      assert.throws(() => downloadFormat({ output: format }, 'batch download', 'the result is CSV'), (error: unknown) =>
        error instanceof UsageError && error.message === `batch download: -o ${format}: the result is CSV; print it as it is (no -o), or as JSON rows with -o ndjson`);
    }
    assert.throws(() => downloadFormat({ output: 'yaml' }, 'batch download', 'the result is CSV'), (error: unknown) =>
      error instanceof UsageError && error.message.startsWith('--output: expected one of '));
  });
});

describe('destinationOf', () => {
  it('is stdout for no FILE or -, a person reading it when stdout is a terminal; a FILE is a terminal only when it is one', async () => {
    assert.deepEqual(await destinationOf(bufferIO({ tty: true }).io, undefined), { path: undefined, terminal: true });
    assert.deepEqual(await destinationOf(bufferIO({ tty: false }).io, '-'), { path: undefined, terminal: false });
    const file = join(tempDir(), 'result.csv');
    assert.deepEqual(await destinationOf(bufferIO({ tty: true }).io, file), { path: file, terminal: false }, 'a file not yet written');
    writeFileSync(file, 'x');
    assert.deepEqual(await destinationOf(bufferIO({ tty: true }).io, file), { path: file, terminal: false });
    assert.deepEqual(await destinationOf(bufferIO({ tty: true }).io, '/dev/null'), { path: '/dev/null', terminal: false }, 'a character device that is no terminal');
  });

  it('takes /dev/stdout and its other names as stdout, written through it: opened by name, the file a shell redirected stdout to would be replaced', async () => {
    for (const name of ['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']) {
      assert.deepEqual(await destinationOf(bufferIO({ tty: false }).io, name), { path: undefined, terminal: false }, name);
      assert.deepEqual(await destinationOf(bufferIO({ tty: true }).io, name), { path: undefined, terminal: true }, name);
    }
  });

  it('finds a FILE that is a terminal, whatever stdout is', { skip: !existsSync('/dev/ptmx') && 'no /dev/ptmx here' }, async () => {
    // Opening the pseudo-terminal multiplexer opens a terminal (a new pty's master side), with no controlling terminal taken.
    assert.deepEqual(await destinationOf(bufferIO({ tty: false }).io, '/dev/ptmx'), { path: '/dev/ptmx', terminal: true });
  });
});

describe('writing a download', () => {
  const CONTROLS = 'id,text\r\n1,\u001b[2Jcleared\u009b\r\n';

  it('writes the bytes as they came to stdout or a FILE that is no terminal, and names a FILE once it is written', async () => {
    const { io, stdout, stderr } = bufferIO();
    await writeDownloadedBytes(io, { path: undefined, terminal: false }, chunksOf(CONTROLS), 'the result of the batch');
    assert.equal(stdout(), CONTROLS);
    assert.equal(stderr(), '');
    const file = join(tempDir(), 'result.csv');
    await writeDownloadedBytes(io, { path: file, terminal: false }, chunksOf('id,text\r\n', '1,a\r\n'), 'the result of the batch');
    assert.equal(readFileSync(file, 'utf8'), 'id,text\r\n1,a\r\n');
    assert.match(stderr(), new RegExp(`wrote the result of the batch to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('shows control characters in caret notation on a terminal, stdout or FILE, keeping CRLF line ends', async () => {
    const { io, stdout } = bufferIO({ tty: true });
    await writeDownloadedBytes(io, { path: undefined, terminal: true }, chunksOf(CONTROLS), 'the result');
    assert.equal(stdout(), 'id,text\r\n1,^[[2Jcleared\\u009b\r\n');
    const file = join(tempDir(), 'tty-like');
    await writeDownloadedBytes(bufferIO().io, { path: file, terminal: true }, chunksOf(CONTROLS), 'the result');
    assert.equal(readFileSync(file, 'utf8'), 'id,text\r\n1,^[[2Jcleared\\u009b\r\n');
  });

  it('escapes the C1 controls JSON leaves raw in a FILE that is a terminal, and leaves them in one that is not', async () => {
    const json = '[{"text":"a\u009bb"}]\n';
    const dir = tempDir();
    await writeDownloadedJson(bufferIO().io, { path: join(dir, 'tty-like'), terminal: true }, textOf(json), 'the result');
    assert.equal(readFileSync(join(dir, 'tty-like'), 'utf8'), '[{"text":"a\\u009bb"}]\n');
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'tty-like'), 'utf8')), JSON.parse(json));
    await writeDownloadedJson(bufferIO().io, { path: join(dir, 'file.json'), terminal: false }, textOf(json), 'the result');
    assert.equal(readFileSync(join(dir, 'file.json'), 'utf8'), json);
  });

  it('passes on a broken pipe as it is, for main to end the run as it does when stdout is gone', { timeout: 30_000 }, async () => {
    const fifo = join(tempDir(), 'results.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('head', ['-c', '1', fifo], { stdio: 'ignore' });
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (let n = 0; n < 100_000; n++) yield Buffer.alloc(65_536, 'x');
    }
    try {
      await assert.rejects(writeDownloadedBytes(bufferIO().io, { path: fifo, terminal: false }, endless(), 'the result'), { code: 'EPIPE' });
    } finally {
      reader.kill();
    }
  });

  it('passes on a download that breaks off as it is, not as a FILE that could not be written, and leaves the FILE as it was', async () => {
    const file = join(tempDir(), 'output.jsonl');
    writeFileSync(file, 'kept\n');
    const brokenOff = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    async function* cutShort(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('{"id":"a"}\n');
      throw brokenOff;
    }
    await assert.rejects(writeDownloadedBytes(bufferIO().io, { path: file, terminal: false }, cutShort(), 'the output'), (error: unknown) => error === brokenOff);
    assert.equal(readFileSync(file, 'utf8'), 'kept\n');
    async function* cutShortText(): AsyncGenerator<string> {
      yield '{"id":"a"}\n';
      throw brokenOff;
    }
    await assert.rejects(writeDownloadedJson(bufferIO().io, { path: file, terminal: false }, cutShortText(), 'the output'), (error: unknown) => error === brokenOff);
    assert.equal(readFileSync(file, 'utf8'), 'kept\n');
  });

  it('names a FILE that cannot be written, and writes nothing in its place', async () => {
    const missingDir = join(tempDir(), 'no-such-dir', 'result.csv');
    await assert.rejects(writeDownloadedBytes(bufferIO().io, { path: missingDir, terminal: false }, chunksOf('x'), 'the result'), (error: unknown) =>
      error instanceof InputError && error.message.startsWith(`${missingDir}: `));
  });
});
