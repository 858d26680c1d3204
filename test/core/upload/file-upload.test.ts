import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { AddressRefusedError, CsafeError, ExitCode, PermissionDeniedError } from '../../../src/core/errors.js';
import { exitCodeOfError } from '../../../src/main.js';
import { HttpClient, serviceMessage } from '../../../src/core/http/client.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/http/retry.js';
import { FileChunks, uploadFile, type UploadProgress } from '../../../src/core/upload/file-upload.js';
import { tempDir } from '../../helpers/cli.js';
import { canListDescriptors, descriptorsOn } from '../../helpers/descriptors.js';
import { bufferIO } from '../../helpers/io.js';
import { closeServer, listenOnLoopback } from '../../helpers/server.js';

interface Received {
  headers: IncomingMessage['headers'];
  url: string;
  body: Buffer;
}
/** How the store answers attempt n: it cuts the connection after the first bytes, or answers once it has read the whole body. */
type Store = (attempt: number) => 'cut' | { status: number; xml?: string; delayMs?: number };

const SIGNATURE = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9';
const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><SignatureProvided>${SIGNATURE}</SignatureProvided></Error>`;

/** A real local object store whose behaviour per attempt the test scripts; the uploader under test is the real one. */
describe('uploadFile', () => {
  let server: Server;
  let baseUrl: string;
  let store: Store = () => ({ status: 200 });
  let attempts = 0;
  const received: Received[] = [];
  const dir = tempDir();
  const file = join(dir, 'dump.jsonl');
  const content = Buffer.from(Array.from({ length: 40_000 }, (_, n) => `{"id":"obj_${n}","title":"item ${n}"}\n`).join(''));
  writeFileSync(file, content);
  const url = () => `${baseUrl}/_storage/imports/ns/req_1.jsonl?X-Csafe-Expires=1999999999&X-Csafe-Signature=${SIGNATURE}`;

  before(async () => {
    server = createServer((req, res) => {
      const answer = store(++attempts);
      if (answer === 'cut') {
        req.once('data', () => req.socket.destroy());
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, url: req.url!, body: Buffer.concat(chunks) });
        setTimeout(() => {
          if (answer.xml === undefined) res.writeHead(answer.status, { etag: '"x"' }).end();
          else res.writeHead(answer.status, { 'content-type': 'application/xml' }).end(answer.xml);
        }, answer.delayMs ?? 0);
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => {
    closeServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  const client = (verbose = false) => {
    attempts = 0;
    received.length = 0;
    const streams = bufferIO({ verbose });
    const http = new HttpClient({
      baseUrl,
      apiKey: 'sk_test_secret_key',
      timeoutMs: 5000,
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 2 },
      userAgent: 'csafe/test',
      io: streams.io,
      now: () => Date.now(),
      sleep: async () => {},
    });
    return { http, stderr: streams.stderr };
  };

  it('streams the file with its Content-Length and Content-Type, never chunked and never with Authorization', async () => {
    store = () => ({ status: 200 });
    const { http } = client();
    const response = await uploadFile(http, url(), { path: file, size: content.length }, { now: Date.now });
    assert.equal(response.status, 200);
    const [put] = received;
    assert.equal(put!.headers['content-length'], String(content.length));
    assert.equal(put!.headers['content-type'], 'application/json');
    assert.equal(put!.headers['transfer-encoding'], undefined);
    assert.equal(put!.headers.authorization, undefined);
    assert.ok(put!.body.equals(content));
    await http.close();
  });

  it('re-opens the file for every attempt: a cut connection and a 503 are followed by the whole file again', async () => {
    store = (attempt) => (attempt === 1 ? 'cut' : attempt === 2 ? { status: 503, xml: xmlError('SlowDown', 'Please reduce your request rate.') } : { status: 200 });
    const { http } = client();
    const response = await uploadFile(http, url(), { path: file, size: content.length }, { now: Date.now });
    assert.equal(response.retries, 2);
    assert.equal(received.length, 2, 'the 503 attempt and the successful one were read to the end');
    for (const put of received) assert.ok(put.body.equals(content), 'each attempt carried the file from its first byte');
    await http.close();
  });

  it('reports progress from the bytes read, throttled, ending at the total', async () => {
    store = () => ({ status: 200 });
    const { http } = client();
    const seen: UploadProgress[] = [];
    const started = Date.now();
    await uploadFile(http, url(), { path: file, size: content.length }, { now: Date.now, onProgress: (p) => seen.push(p), progressIntervalMs: 20 });
    const elapsed = Date.now() - started;
    assert.ok(seen.length >= 1 && seen.length <= elapsed / 20 + 2, `${seen.length} reports in ${elapsed} ms`);
    assert.ok(seen.every((p, i) => p.total === content.length && p.sent <= p.total && (i === 0 || p.sent >= seen[i - 1]!.sent)));
    assert.equal(seen.at(-1)!.sent, content.length);
    await http.close();
  });

  it('sends an empty file as an empty body, and no byte past the size given', async () => {
    store = () => ({ status: 200 });
    const { http } = client();
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const seen: UploadProgress[] = [];
    const answer = await uploadFile(http, url(), { path: empty, size: 0 }, { now: () => 0, onProgress: (p) => seen.push(p) });
    assert.equal(answer.status, 200);
    assert.deepEqual(seen, [{ sent: 0, total: 0, elapsedMs: 0 }]);
    await uploadFile(http, url(), { path: file, size: 10 }, { now: Date.now });
    assert.deepEqual(
      received.map((r) => [r.headers['content-length'], r.headers['content-type'], r.body.toString()]),
      [
        ['0', 'application/json', ''],
        ['10', 'application/json', content.subarray(0, 10).toString()],
      ],
    );
    await http.close();
  });

  it('reports progress while the request is in flight, not only at its end', async () => {
    store = () => ({ status: 200, delayMs: 300 });
    const { http } = client();
    const seen: UploadProgress[] = [];
    await uploadFile(http, url(), { path: file, size: 100 }, { now: Date.now, onProgress: (p) => seen.push(p), progressIntervalMs: 10 });
    assert.ok(seen.length >= 2, `${seen.length} reports`);
    await http.close();
  });

  it('times progress from the start of the current attempt, and reports the end once', async () => {
    store = (n) => (n === 1 ? { status: 503 } : { status: 200 });
    const { http } = client();
    let clock = 0;
    const seen: UploadProgress[] = [];
    await uploadFile(http, url(), { path: file, size: 100 }, { now: () => (clock += 1000), onProgress: (p) => seen.push(p), progressIntervalMs: 60_000 });
    assert.deepEqual(seen, [{ sent: 100, total: 100, elapsedMs: 1000 }], 'one report, at the end, timed from the second attempt');
    await http.close();
  });

  it('a refused signature is no refusal of the API key: exit 1, not 3, with a hint to run again', async () => {
    store = () => ({ status: 403, xml: xmlError('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.') });
    const { http } = client();
    const error = await uploadFile(http, url(), { path: file, size: content.length }, { now: Date.now }).catch((e: unknown) => e);
    assert.ok(!(error instanceof PermissionDeniedError), 'not the error a refused key is');
    assert.equal(exitCodeOfError(error), ExitCode.failure);
    assert.match((error as CsafeError).hint ?? '', /API key was accepted.*run again/);
    await http.close();
  });

  it("reads an object store's XML error, and never shows the URL's signature in traces or errors", async () => {
    store = () => ({ status: 403, xml: xmlError('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.') });
    const { http, stderr } = client(true);
    const error = await uploadFile(http, url(), { path: file, size: content.length }, { now: Date.now }).catch((e: unknown) => e);
    assert.ok(error instanceof AddressRefusedError);
    assert.equal(error.details.errorType, 'SignatureDoesNotMatch');
    assert.match(error.message, /^PUT .*\/_storage\/imports\/ns\/req_1\.jsonl\?.*: 403 SignatureDoesNotMatch: The request signature we calculated/);
    assert.ok(!error.message.includes(SIGNATURE), error.message);
    assert.match(stderr(), /X-Csafe-Signature=\[REDACTED\]/);
    assert.ok(!stderr().includes(SIGNATURE), 'trace shows no signature');
    await http.close();
  });
});

describe('FileChunks', () => {
  const MIB = 1 << 20;
  const dir = tempDir();
  after(() => rmSync(dir, { recursive: true, force: true }));
  /** A file whose every 4-byte word is its own offset, so a chunk from the wrong place shows. */
  const numbered = (name: string, bytes: number) => {
    const content = Buffer.alloc(bytes);
    for (let at = 0; at + 4 <= bytes; at += 4) content.writeUInt32BE(at, at);
    const path = join(dir, name);
    writeFileSync(path, content);
    return { path, content };
  };
  const readAll = async (chunks: FileChunks) => {
    const read: Buffer[] = [];
    for (let chunk = await chunks.next(); chunk !== undefined; chunk = await chunks.next()) read.push(Buffer.from(chunk));
    return read;
  };

  it('gives a large file in chunks of 1 MiB, each good until the next-but-one is asked for', async () => {
    const { path, content } = numbered('large.bin', 2 * MIB + 1000);
    const chunks = await FileChunks.open(path, content.length);
    const first = await chunks.next();
    const second = await chunks.next();
    assert.ok(first!.equals(content.subarray(0, MIB)), 'the first chunk, whole after the second was read');
    assert.ok(second!.equals(content.subarray(MIB, 2 * MIB)));
    assert.equal(chunks.read, 2 * MIB);
    const third = await chunks.next();
    assert.ok(third!.equals(content.subarray(2 * MIB)));
    assert.equal(await chunks.next(), undefined);
    await chunks.close();
  });

  it('reads no byte past the size it was given, on a file that has grown since', async () => {
    const { path, content } = numbered('grown.bin', 2 * MIB);
    const size = MIB + 300;
    const chunks = await FileChunks.open(path, size);
    const read = await readAll(chunks);
    assert.deepEqual(read.map((chunk) => chunk.length), [MIB, 300]);
    assert.ok(Buffer.concat(read).equals(content.subarray(0, size)));
    await chunks.close();
  });

  it('after a rewind gives the same bytes again: the first chunk kept, the rest read anew', async () => {
    for (const bytes of [1000, MIB, 2 * MIB, 2 * MIB + 4, 3 * MIB + 8]) {
      const { path, content } = numbered(`rewind-${bytes}.bin`, bytes);
      const chunks = await FileChunks.open(path, bytes);
      for (let attempt = 1; attempt <= 3; attempt++) {
        const read = await readAll(chunks);
        assert.ok(Buffer.concat(read).equals(content), `${bytes} bytes, attempt ${attempt}`);
        assert.equal(chunks.read, bytes);
        chunks.rewind();
        assert.equal(chunks.read, 0);
      }
      await chunks.close();
    }
  });

  it('sends again the first chunk it checked, not what the file holds by then', async () => {
    for (const bytes of [11, 2 * MIB]) {
      const path = join(dir, `changed-${bytes}.jsonl`);
      const checked = Buffer.alloc(bytes, 'a');
      writeFileSync(path, checked);
      const chunks = await FileChunks.open(path, bytes);
      const first = (await readAll(chunks))[0]!;
      writeFileSync(path, Buffer.alloc(bytes, 'b'));
      chunks.rewind();
      assert.ok((await chunks.next())!.equals(first), `${bytes} bytes: the first chunk as it was read`);
      assert.ok(first.equals(checked.subarray(0, Math.min(bytes, MIB))));
      await chunks.close();
    }
  });

  it('says when bytes it gives out again may not be those it gave before: read from disk again, and the file written meanwhile', async () => {
    const path = join(dir, 'rewritten.jsonl');
    writeFileSync(path, Buffer.alloc(2 * MIB, 'a'));
    const chunks = await FileChunks.open(path, 2 * MIB);
    await readAll(chunks);
    chunks.rewind();
    await readAll(chunks);
    assert.equal(chunks.mayHaveChanged, false, 'read again, the file untouched');
    const edit = openSync(path, 'r+');
    writeSync(edit, 'b', MIB + 10);
    closeSync(edit);
    assert.equal(chunks.mayHaveChanged, true, 'read again, and written in place');
    await chunks.close();

    // A file of one chunk is given out again from memory: what was checked is what is sent.
    const small = join(dir, 'small-rewritten.jsonl');
    writeFileSync(small, 'aaaa');
    const one = await FileChunks.open(small, 4);
    await readAll(one);
    writeFileSync(small, 'bbbb');
    one.rewind();
    assert.equal((await one.next())!.toString(), 'aaaa');
    assert.equal(one.mayHaveChanged, false);
    await one.close();
  });

  it('refuses a file that shrank below its size, naming it', async () => {
    const { path } = numbered('shrinking.bin', 2 * MIB);
    const chunks = await FileChunks.open(path, 2 * MIB);
    await chunks.next();
    truncateSync(path, MIB);
    await assert.rejects(chunks.next(), { message: `${path}: the file shrank below the ${2 * MIB} bytes it had; the upload was stopped before its end` });
    await chunks.close();
  });

  it('closes its file: nothing can be read after', async () => {
    const { path } = numbered('closed.bin', 100);
    const chunks = await FileChunks.open(path, 100);
    await chunks.close();
    await assert.rejects(chunks.next(), { code: 'EBADF' });
  });
});

describe('uploadFile and the file it reads', () => {
  let server: Server;
  let baseUrl: string;
  const bodies: Buffer[] = [];
  const dir = tempDir();
  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks));
        res.writeHead(200).end();
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => {
    closeServer(server);
    rmSync(dir, { recursive: true, force: true });
  });
  const http = () => new HttpClient({ baseUrl, apiKey: 'sk_test_secret_key', timeoutMs: 5000, retry: DEFAULT_RETRY_POLICY, userAgent: 'csafe/test', io: bufferIO().io, now: Date.now, sleep: async () => {} });

  it('leaves open the chunks it was given, and closes those it opened', { skip: !canListDescriptors }, async () => {
    const path = join(dir, 'given.jsonl');
    writeFileSync(path, '{"id":"a"}\n');
    const client = http();
    const large = join(dir, 'given-large.bin');
    writeFileSync(large, Buffer.alloc((1 << 20) + 10, 'x'));
    const chunks = await FileChunks.open(large, (1 << 20) + 10);
    await uploadFile(client, `${baseUrl}/upload`, { path: large, size: (1 << 20) + 10, chunks }, { now: Date.now });
    chunks.rewind();
    await chunks.next();
    assert.equal((await chunks.next())!.length, 10, 'the caller can still read them');
    await chunks.close();
    bodies.length = 0;
    for (let n = 0; n < 5; n++) await uploadFile(client, `${baseUrl}/upload`, { path, size: 11 }, { now: Date.now });
    assert.equal(descriptorsOn(path), 0, 'no file left open by the uploads that opened their own');
    assert.deepEqual(bodies.map(String), Array(5).fill('{"id":"a"}\n'));
    await client.close();
  });

  it('sends an empty body without opening the file', async () => {
    const client = http();
    bodies.length = 0;
    const response = await uploadFile(client, `${baseUrl}/upload`, { path: join(dir, 'never-written'), size: 0 }, { now: Date.now });
    assert.equal(response.status, 200);
    assert.deepEqual(bodies.map(String), ['']);
    await client.close();
  });
});

describe('serviceMessage', () => {
  it('takes Code and Message from an S3-style XML error, entities decoded', () => {
    assert.deepEqual(serviceMessage(xmlError('AccessDenied', 'Request has expired &amp; can&apos;t be used'), 403), { message: "Request has expired & can't be used", type: 'AccessDenied' });
    assert.deepEqual(serviceMessage('<Error><Code>MissingContentLength</Code></Error>', 411), { message: 'MissingContentLength', type: 'MissingContentLength' });
  });

  it('keeps other text bodies as they are', () => {
    assert.deepEqual(serviceMessage('<html>Bad Gateway</html>', 502), { message: '<html>Bad Gateway</html>' });
  });
});
