import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { mapInOrder } from '../../../src/core/bulk/concurrency.js';
import { InputError, InterruptedError, UsageError } from '../../../src/core/errors.js';
import { detectImageType } from '../../../src/core/input/images.js';
import { decodeText } from '../../../src/core/input/whole-file.js';
import { fileError, fileOrStdin, inputSource, isRegularFile, openFileStream, readRecords, refuseEmptyRecords, regularFileSize } from '../../../src/core/input/sources.js';
import { tempDir } from '../../helpers/cli.js';

const collect = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

/** core/input/json-records reads; readRecords opens the file or stdin and names it in what stops the read. */
describe('readRecords', () => {
  const dir = tempDir();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return inputSource(path, Readable.from([]));
  };
  const refused = (message: string, hint?: string) => (error: unknown) => {
    assert.ok(error instanceof InputError, String(error));
    assert.equal(error.message, message);
    assert.equal(error.hint, hint);
    return true;
  };

  it('reads a file in any shape, or one record a line with jsonLines', async () => {
    const pretty = file('pretty.json', '{\n  "a": 1\n}\n');
    assert.deepEqual(await collect(readRecords(pretty)), [{ line: 1, value: { a: 1 } }]);
    assert.deepEqual((await collect(readRecords(pretty, { jsonLines: true }))).map((record) => 'error' in record), [true, true, true]);
  });

  it('names the input and the line of a line over the limit, with what to do', async () => {
    const source = file('long.jsonl', `{}\n{"a":"${'x'.repeat(10 * 1024 * 1024)}"}\n`);
    await assert.rejects(collect(readRecords(source)), refused(`${source.name}:2: line is longer than 10 MiB`, 'each record must be one JSON object on its own line'));
  });

  it('names the input when it holds no record', async () => {
    const empty = file('empty.jsonl', '\n\n');
    await assert.rejects(collect(readRecords(empty, { jsonLines: true })), refused(`${empty.name}: holds only blank lines, expected at least one JSON record`));
    const none = file('none.json', '[]');
    await assert.rejects(collect(readRecords(none)), refused(`${none.name}: holds no records, expected at least one JSON record`));
  });

  it('names a missing file, and stdin as stdin', async () => {
    const missing = inputSource(join(dir, 'nope.json'), Readable.from([]));
    await assert.rejects(collect(readRecords(missing)), refused(`${missing.name}: no such file`));
    await assert.rejects(collect(readRecords(inputSource('-', Readable.from([])))), refused('stdin: is empty, expected at least one JSON record'));
  });
});

describe('the input a command is given', () => {
  it('is FILE when given, else stdin when something is piped in; with a terminal on stdin, a usage error', () => {
    assert.equal(fileOrStdin('events.jsonl', true), 'events.jsonl');
    assert.equal(fileOrStdin('-', true), '-');
    assert.equal(fileOrStdin(undefined, false), '-');
    assert.throws(() => fileOrStdin(undefined, true), (error: unknown) => error instanceof UsageError && error.message === 'no input: give a FILE, or `-` to read stdin');
  });

  it('is uploaded only when it is a regular file, whose size is then known', async () => {
    const dir = tempDir();
    const path = join(dir, 'objects.jsonl');
    writeFileSync(path, '{"id":"d-1"}\n');
    assert.equal(await regularFileSize('objects.jsonl', path), 13);
    await assert.rejects(regularFileSize('given-dir', dir), (error: unknown) => error instanceof InputError && error.message === 'given-dir: is a directory, expected a file');
    await assert.rejects(regularFileSize('gone.jsonl', join(dir, 'gone.jsonl')), (error: unknown) => error instanceof InputError && error.message === 'gone.jsonl: no such file');
  });

  it('is refused before an upload when it holds no record, and read no further than its first record when it does', async () => {
    const dir = tempDir();
    const blank = join(dir, 'blank.jsonl');
    writeFileSync(blank, '\n \n');
    await assert.rejects(refuseEmptyRecords(inputSource(blank, Readable.from([]))), (error: unknown) =>
      error instanceof InputError && error.message === `${inputSource(blank, Readable.from([])).name}: holds only blank lines, expected at least one JSON record`);
    const failsAfterOneRecord = Readable.from(
      (async function* () {
        yield Buffer.from('{"id":"d-1"}\n');
        throw new Error('read past the first record');
      })(),
    );
    await refuseEmptyRecords(inputSource('-', failsAfterOneRecord));
  });
});

describe('opening inputs', () => {
  const dir = tempDir();
  const text = async (stream: Readable) => Buffer.concat(await collect(stream as AsyncIterable<Buffer>)).toString();
  const fifo = (name: string) => {
    const path = join(dir, name);
    execFileSync('mkfifo', [path]);
    return path;
  };

  it('explains each file-system error by the name it was given', () => {
    const failure = (code: string, message = `${code}: x`) => Object.assign(new Error(message), { code });
    assert.equal(fileError('a.json', failure('ENOENT')).message, 'a.json: no such file');
    assert.equal(fileError('a.json', failure('EISDIR')).message, 'a.json: is a directory, expected a file');
    assert.equal(fileError('a.json', failure('EACCES')).message, 'a.json: permission denied');
    assert.equal(fileError('a.json', failure('EIO', 'i/o error')).message, 'a.json: i/o error');
    assert.equal(fileError('a.json', 'plain text').message, 'a.json: plain text');
    assert.equal(fileError('a.json', null).message, 'a.json: null', 'whatever was thrown');
    assert.equal(fileError('a.json', undefined).message, 'a.json: undefined');
    assert.ok(fileError('a.json', failure('EIO')) instanceof InputError);
    const abort = Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
    assert.ok(fileError('a.json', abort) instanceof InterruptedError);
  });

  it('tells a regular or missing file (read twice) from a pipe, a socket or a directory (read once)', async () => {
    writeFileSync(join(dir, 'plain.json'), '{}');
    mkdirSync(join(dir, 'folder'));
    assert.equal(isRegularFile(join(dir, 'plain.json')), true);
    assert.equal(isRegularFile(join(dir, 'absent.json')), true);
    assert.equal(isRegularFile(join(dir, 'folder')), false);
    assert.equal(isRegularFile(fifo('kind.fifo')), false);
    const server = createServer().listen(join(dir, 'kind.sock'));
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      assert.equal(isRegularFile(join(dir, 'kind.sock')), false);
    } finally {
      server.close();
    }
  });

  it('reads a named pipe through a handle that Ctrl-C can close while no writer has come', { timeout: 10_000 }, async () => {
    const path = fifo('waiting.fifo');
    const interrupt = new AbortController();
    const reading = text(openFileStream(path, interrupt.signal));
    interrupt.abort();
    await assert.rejects(reading, (error: Error) => error.name === 'AbortError');
  });

  it('reads what a writer puts in a named pipe, to its end', { timeout: 10_000 }, async () => {
    const path = fifo('written.fifo');
    const reading = text(openFileStream(path));
    const writer = openSync(path, 'w');
    writeFileSync(writer, '{"a":1}\n');
    closeSync(writer);
    assert.equal(await reading, '{"a":1}\n');
  });

  it('leaves stdin open after reading it, and closes a file it opened', async () => {
    // As process.stdin: ending does not destroy it (autoDestroy off), so only a destroy() would.
    const stdin = new Readable({ read() {}, autoDestroy: false });
    stdin.push('{"a":1}\n');
    stdin.push(null);
    await collect(readRecords(inputSource('-', stdin)));
    assert.equal(stdin.destroyed, false);
    writeFileSync(join(dir, 'closed.json'), '{"a":1}\n{"b":2}\n');
    const source = inputSource(join(dir, 'closed.json'), Readable.from([]));
    let opened: Readable | undefined;
    const records = readRecords({ name: source.name, open: () => (opened = source.open()) });
    await records.next();
    await records.return(undefined);
    assert.equal(opened?.destroyed, true);
  });
});

describe('input files', () => {
  it('detects images by magic bytes', () => {
    assert.equal(detectImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'image/png');
    assert.equal(detectImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
    assert.equal(detectImageType(Buffer.from('GIF89a')), 'image/gif');
    assert.equal(detectImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
    assert.equal(detectImageType(Buffer.from('hello')), undefined);
  });

  it('accepts UTF-8 text and refuses binary', () => {
    assert.equal(decodeText(Buffer.from('héllo')), 'héllo');
    assert.equal(decodeText(Buffer.from([0xff, 0xfe, 0x00])), undefined);
    assert.equal(decodeText(Buffer.from([0xc3, 0x28])), undefined);
  });
});

describe('mapInOrder', () => {
  it('yields in input order with at most `limit` in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const work = async (n: number) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, (7 - (n % 7)) * 2));
      inFlight--;
      if (n === 5) throw new Error('five');
      return n * 10;
    };
    const out = await collect(mapInOrder(Readable.from(Array.from({ length: 20 }, (_, i) => i)), 4, work));
    assert.deepEqual(out.map((o) => o.item), Array.from({ length: 20 }, (_, i) => i));
    assert.equal(out[5]!.outcome.ok, false);
    assert.deepEqual(out[6]!.outcome, { ok: true, value: 60 });
    assert.ok(peak <= 4, `peak ${peak}`);
  });
});
