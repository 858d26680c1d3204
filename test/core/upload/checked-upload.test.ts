import assert from 'node:assert/strict';
import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CsafeError, InputError, InterruptedError } from '../../../src/core/errors.js';
import { HttpClient } from '../../../src/core/http/client.js';
import { DryRunEnded, DryRunPlan } from '../../../src/core/http/dry-run.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/http/retry.js';
import type { LineCheck } from '../../../src/core/input/jsonl-checker.js';
import { MAX_LINE_BYTES } from '../../../src/core/input/lines.js';
import { uploadCheckedLines } from '../../../src/core/upload/checked-upload.js';
import { tempDir } from '../../helpers/cli.js';
import { bufferIO } from '../../helpers/io.js';
import { closeServer, listenOnLoopback } from '../../helpers/server.js';

/** Each line must be an object with a string id. */
const CHECK: LineCheck = {
  problemOf: (value) => (typeof (value as { id?: unknown }).id === 'string' ? undefined : 'id: expected a string'),
  hint: 'each line must be an object with an id',
};
const line = (n: number) => `{"id":"d-${n}","t":"title ${n}"}\n`;
/** More than one 1 MiB chunk of the file as it is read and sent. */
const MANY = 40_000;

/** A real local object store that keeps the bodies it received whole. */
describe('uploadCheckedLines', () => {
  let server: Server;
  let baseUrl: string;
  const stored: Buffer[] = [];
  let bytesReceived = 0;
  const dir = tempDir();

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => {
        bytesReceived += chunk.length;
        chunks.push(chunk);
      });
      req.on('end', () => {
        stored.push(Buffer.concat(chunks));
        res.writeHead(200).end();
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => closeServer(server));

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return { path, size: statSync(path).size };
  };

  async function upload(input: { path: string; size: number }, options: { dryRun?: boolean; abort?: boolean; beforeAddress?: () => void } = {}) {
    stored.length = 0;
    bytesReceived = 0;
    const { io, stderr } = bufferIO();
    const http = new HttpClient({ baseUrl, apiKey: 'sk_test_secret_key', timeoutMs: 5000, retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 }, userAgent: 'csafe/test', io, now: () => Date.now(), sleep: async () => {} });
    const interrupt = new AbortController();
    if (options.abort) interrupt.abort();
    let issued = 0;
    const issue = async () => {
      options.beforeAddress?.();
      issued++;
      if (options.dryRun) throw new DryRunPlan().stop({ method: 'POST', url: `${baseUrl}/v1/data/ns/import-requests`, headers: {} });
      return { issued: 'req_1', id: 'req_1', url: `${baseUrl}/upload/${issued}`, expiresAt: '2999-01-01T00:00:00Z' };
    };
    try {
      const result = await uploadCheckedLines({ http, io, now: () => Date.now(), signal: interrupt.signal }, 'objects.jsonl', input, CHECK, 'application/json', issue);
      return { result, issued, stderr: stderr() };
    } catch (error) {
      throw Object.assign(error as Error, { issued, stderr: stderr() });
    } finally {
      await http.close();
    }
  }
  const withWarnings = (error: unknown) => error as Error & { issued: number; stderr: string };

  it('uploads a valid file whole, asking for one address', async () => {
    const text = Array.from({ length: MANY }, (_, i) => line(i + 1)).join('');
    const { result, issued } = await upload(file('valid.jsonl', text));
    assert.equal(issued, 1);
    assert.equal(result.issued, 'req_1');
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.toString(), text);
  });

  it('refuses a bad line in the first chunk before any address is asked for, naming each bad line', async () => {
    await assert.rejects(upload(file('bad-first.jsonl', `${line(1)}{"id":2}\n${line(3)}[]\n`)), (error: unknown) => {
      const { issued, stderr } = withWarnings(error);
      assert.ok(error instanceof InputError, String(error));
      assert.equal(error.message, 'objects.jsonl: 2 invalid lines; nothing was sent');
      assert.equal(error.hint, 'each line must be an object with an id');
      assert.equal(issued, 0);
      assert.match(stderr, /objects\.jsonl:2: id: expected a string\n/);
      assert.match(stderr, /objects\.jsonl:4: /);
      return true;
    });
    assert.equal(bytesReceived, 0);
  });

  it('stops an upload before its last byte at a bad line in a later chunk, and reports every bad line after it too', async () => {
    const lines = Array.from({ length: MANY }, (_, i) => line(i + 1));
    lines[MANY - 100] = 'not json\n';
    lines[MANY - 1] = '{"id":7}\n';
    const input = file('bad-later.jsonl', lines.join(''));
    await assert.rejects(upload(input), (error: unknown) => {
      const { issued, stderr } = withWarnings(error);
      assert.ok(error instanceof InputError, String(error));
      assert.equal(error.message, 'objects.jsonl: 2 invalid lines; nothing was sent');
      assert.equal(issued, 1);
      assert.match(stderr, new RegExp(`objects\\.jsonl:${MANY - 99}: `));
      assert.match(stderr, new RegExp(`objects\\.jsonl:${MANY}: id: expected a string`));
      return true;
    });
    assert.ok(bytesReceived < input.size, `${bytesReceived} of ${input.size} bytes reached the store`);
  });

  it('refuses a file of blank lines only before asking for an address, however many chunks the blanks fill', async () => {
    for (const text of ['', '\n\n', '\n'.repeat(3 * 1024 * 1024)]) {
      await assert.rejects(upload(file('blank.jsonl', text)), (error: unknown) => error instanceof InputError && /^objects\.jsonl: (is empty|holds only blank lines)/.test(error.message) && withWarnings(error).issued === 0, JSON.stringify(text.slice(0, 4)));
    }
    const lateRecord = `${'\n'.repeat(2 * 1024 * 1024)}${line(1)}`;
    const { issued } = await upload(file('late-record.jsonl', lateRecord));
    assert.equal(issued, 1);
    assert.equal(stored[0]!.toString(), lateRecord, 'the blank chunks read to find the first record are sent too');
  });

  it('stops before the last byte when chunks it checked are read from disk again and the file was written meanwhile', async () => {
    // Blank lines fill the first two chunks: they are checked to find the first record, then read again by the upload.
    const text = `${'\n'.repeat(2 * 1024 * 1024)}${Array.from({ length: 100 }, (_, i) => line(i + 1)).join('')}`;
    const input = file('rewritten.jsonl', text);
    const writeInBlanks = () => {
      const fd = openSync(input.path, 'r+');
      writeSync(fd, '{"id":5}', 1536 * 1024);
      closeSync(fd);
    };
    await assert.rejects(upload(input, { beforeAddress: writeInBlanks }), (error: unknown) => {
      assert.ok(error instanceof CsafeError && !(error instanceof InputError), String(error));
      assert.equal(error.message, 'objects.jsonl: the file was written to while it was uploaded, after its lines were checked; the upload was stopped before its end, so nothing was kept');
      return true;
    });
    assert.ok(bytesReceived < input.size, `${bytesReceived} of ${input.size} bytes reached the store`);
    assert.deepEqual(stored.filter((body) => body.length === input.size), [], 'no whole body stored');
  });

  it('stops an upload before its last byte at a line over the limit in a later chunk, and says nothing was sent', async () => {
    const lines = Array.from({ length: MANY }, (_, i) => line(i + 1));
    lines[MANY - 1] = `{"id":"${'x'.repeat(MAX_LINE_BYTES)}"}\n`;
    const input = file('long-later.jsonl', lines.join(''));
    await assert.rejects(upload(input), (error: unknown) => {
      assert.ok(error instanceof InputError, String(error));
      assert.equal(error.message, `objects.jsonl:${MANY}: line is longer than 10 MiB; nothing was sent`);
      assert.equal(withWarnings(error).issued, 1);
      return true;
    });
    assert.ok(bytesReceived < input.size, `${bytesReceived} of ${input.size} bytes reached the store`);
  });

  it('names a file that cannot be opened', async () => {
    await assert.rejects(upload({ path: join(dir, 'missing.jsonl'), size: 10 }), (error: unknown) => error instanceof InputError && error.message === 'objects.jsonl: no such file');
  });

  it('checks the whole file in a dry run, which ends at the request for the address', async () => {
    const lines = Array.from({ length: MANY }, (_, i) => line(i + 1));
    lines[MANY - 1] = '{"id":7}\n';
    await assert.rejects(upload(file('dry-bad.jsonl', lines.join('')), { dryRun: true }), (error: unknown) =>
      error instanceof InputError && error.message === 'objects.jsonl: 1 invalid line; nothing was sent' && withWarnings(error).stderr.includes(`objects.jsonl:${MANY}: id: expected a string`));
    await assert.rejects(upload(file('dry-good.jsonl', Array.from({ length: MANY }, (_, i) => line(i + 1)).join('')), { dryRun: true }), (error: unknown) =>
      error instanceof DryRunEnded && error.plan.requests.map((request) => request.method).join(' ') === 'POST PUT' && error.plan.requests[1]!.body_file === join(dir, 'dry-good.jsonl'));
  });

  it('stops at Ctrl-C before anything is asked for', async () => {
    await assert.rejects(upload(file('any.jsonl', line(1)), { abort: true }), (error: unknown) => error instanceof InterruptedError && withWarnings(error).issued === 0);
  });
});
