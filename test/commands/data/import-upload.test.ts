import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { importFile } from '../../../src/commands/data/import/upload.js';
import { ExitCode, PermissionDeniedError } from '../../../src/core/errors.js';
import { exitCodeOfError } from '../../../src/main.js';
import { HttpClient } from '../../../src/core/http/client.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/http/retry.js';
import { tempDir } from '../../helpers/cli.js';
import { bufferIO } from '../../helpers/io.js';

const expired = '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
const badSignature = '<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match</Message></Error>';

/**
 * A local service and object store in one: POST …/import hands out addresses that expire after
 * `ttlMs` (negative: already expired), and the n-th PUT is answered by `storeAnswer(n)`.
 */
describe('importFile: expired upload addresses', () => {
  let server: Server;
  let baseUrl: string;
  let ttlMs: (importNumber: number) => number;
  let storeAnswer: (putNumber: number) => string | undefined;
  const log: string[] = [];
  const dir = tempDir();
  const file = join(dir, 'dump.jsonl');
  writeFileSync(file, '{"id":"a"}\n{"id":"b"}\n');

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.method === 'POST') {
          const n = log.filter((entry) => entry.startsWith('POST')).length + 1;
          log.push(`POST req_${n}`);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
            expires_at: new Date(Date.now() + ttlMs(n)).toISOString(),
            objectKey: `imports/ns/req_${n}.jsonl`,
            requestId: `req_${n}`,
            status: 'pending_upload',
            upload_url: `${baseUrl}/_storage/imports/ns/req_${n}.jsonl?X-Csafe-Expires=1&X-Csafe-Signature=abc`,
          }));
          return;
        }
        const n = log.filter((entry) => entry.startsWith('PUT')).length + 1;
        log.push(`PUT ${req.url!.split('?')[0]}`);
        const xml = storeAnswer(n);
        if (xml === undefined) res.writeHead(200).end();
        else res.writeHead(403, { 'content-type': 'application/xml' }).end(xml);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    log.length = 0;
  });

  const run = async () => {
    const { io, stderr } = bufferIO();
    const http = new HttpClient({
      baseUrl, apiKey: 'sk_test_k', timeoutMs: 5000, retry: DEFAULT_RETRY_POLICY, userAgent: 'csafe/test', io,
      now: () => Date.now(), sleep: async () => {},
    });
    try {
      return { result: await importFile({ http, io, now: () => Date.now() }, 'ns', { path: file, size: 22 }), stderr: stderr() };
    } finally {
      await http.close();
    }
  };

  it('requests a new import without uploading when expires_at has already passed', async () => {
    ttlMs = (n) => (n === 1 ? -1000 : 60_000);
    storeAnswer = () => undefined;
    const { result, stderr } = await run();
    assert.deepEqual(log, ['POST req_1', 'POST req_2', 'PUT /_storage/imports/ns/req_2.jsonl']);
    assert.equal(result.imports, 2);
    assert.equal(result.request.requestId, 'req_2');
    assert.match(stderr, /upload address of req_1 expired/);
  });

  it('requests a new import when the store answers 403 "Request has expired"', async () => {
    ttlMs = () => 60_000;
    storeAnswer = (n) => (n === 1 ? expired : undefined);
    const { result } = await run();
    assert.deepEqual(log, ['POST req_1', 'PUT /_storage/imports/ns/req_1.jsonl', 'POST req_2', 'PUT /_storage/imports/ns/req_2.jsonl']);
    assert.equal(result.imports, 2);
  });

  it('gives up after three import requests, and at once on any other 403', async () => {
    ttlMs = () => 60_000;
    storeAnswer = () => expired;
    await assert.rejects(run(), (error: unknown) => !(error instanceof PermissionDeniedError) && exitCodeOfError(error) === ExitCode.failure && /upload address expired 3 times .*Request has expired/.test((error as Error).message));
    assert.equal(log.filter((entry) => entry.startsWith('POST')).length, 3);

    log.length = 0;
    storeAnswer = () => badSignature;
    await assert.rejects(run(), /403 SignatureDoesNotMatch/);
    assert.deepEqual(log, ['POST req_1', 'PUT /_storage/imports/ns/req_1.jsonl']);

    // AccessDenied without "Request has expired" (a bucket policy): a fresh address would be refused the same.
    log.length = 0;
    storeAnswer = () => '<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
    await assert.rejects(run(), /403 AccessDenied/);
    assert.deepEqual(log, ['POST req_1', 'PUT /_storage/imports/ns/req_1.jsonl']);
  });

  it('uploads on the last import request even when our clock calls it expired: the store decides', async () => {
    ttlMs = () => -1000;
    storeAnswer = () => undefined;
    const { result } = await run();
    assert.deepEqual(log, ['POST req_1', 'POST req_2', 'POST req_3', 'PUT /_storage/imports/ns/req_3.jsonl']);
    assert.equal(result.imports, 3);
  });
});
