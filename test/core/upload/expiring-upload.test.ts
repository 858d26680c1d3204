import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AddressRefusedError, CsafeError, InterruptedError, PermissionDeniedError } from '../../../src/core/errors.js';
import { HttpClient } from '../../../src/core/http/client.js';
import { DryRunEnded, DryRunPlan } from '../../../src/core/http/dry-run.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/http/retry.js';
import { uploadBeforeExpiry, type IssuedAddress } from '../../../src/core/upload/expiring-upload.js';
import { tempDir } from '../../helpers/cli.js';
import { bufferIO } from '../../helpers/io.js';
import { closeServer, listenOnLoopback } from '../../helpers/server.js';

const EXPIRED = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
const POLICY = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
const NOW = Date.parse('2026-11-28T12:00:00Z');

/**
 * A real local object store: `/live/N` stores what is PUT, `/expired/N` answers the store's 403
 * for a late address, `/denied/N` another 403, `/hang/N` never answers, `/stall/N` neither, and
 * calls onHang at the first bytes of the body rather than at its end.
 */
describe('uploadBeforeExpiry', () => {
  let server: Server;
  let baseUrl: string;
  const asked: string[] = [];
  const stored = new Map<string, Buffer>();
  let onHang = () => {};
  const dir = tempDir();
  const path = join(dir, 'objects.jsonl');
  writeFileSync(path, '{"id":"d-1"}\n{"id":"d-2"}\n');
  const file = { path, size: readFileSync(path).length };

  before(async () => {
    server = createServer((req, res) => {
      asked.push(req.url!);
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => {
        if (req.url!.startsWith('/stall/') && chunks.length === 0) onHang();
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (req.url!.startsWith('/hang/')) return onHang();
        if (req.url!.startsWith('/live/')) {
          stored.set(req.url!, Buffer.concat(chunks));
          return void res.writeHead(200).end();
        }
        res.writeHead(403, { 'content-type': 'application/xml' }).end(req.url!.startsWith('/expired/') ? EXPIRED : POLICY);
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => closeServer(server));

  const address = (id: string, path: string, expiresAt = '2026-11-28T13:00:00Z'): IssuedAddress<string> => ({ issued: `issued with ${id}`, id, url: `${baseUrl}${path}`, expiresAt });

  /** Uploads the file, each address asked for the next of `addresses`. */
  async function upload(addresses: Array<IssuedAddress<string>>, signal?: AbortSignal, options: { progress?: boolean; now?: () => number; file?: typeof file } = {}) {
    asked.length = 0;
    stored.clear();
    const { io, stderr } = bufferIO({ progress: options.progress });
    const now = options.now ?? (() => NOW);
    const http = new HttpClient({ baseUrl, apiKey: 'sk_test_secret_key', timeoutMs: 5000, retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 }, userAgent: 'csafe/test', io, now, sleep: async () => {}, signal });
    let issued = 0;
    try {
      const result = await uploadBeforeExpiry({ http, io, now }, options.file ?? file, 'application/json', async () => addresses[issued++]!);
      return { result, issued, stderr: stderr() };
    } catch (error) {
      throw Object.assign(error as Error, { stderr: stderr(), issued });
    } finally {
      await http.close();
    }
  }

  it('uploads the file to the address it is given, and says what it was issued with', async () => {
    const { result, issued, stderr } = await upload([address('req_1', '/live/1')]);
    assert.deepEqual({ ...result, durationMs: 0 }, { issued: 'issued with req_1', bytes: file.size, durationMs: 0, addresses: 1, retries: 0 });
    assert.equal(issued, 1);
    assert.deepEqual(stored.get('/live/1'), readFileSync(path));
    assert.equal(stderr, '');
  });

  it('shows its progress with --progress, from the label to the last byte, and times the upload by its clock', async () => {
    let clock = NOW;
    const { result, stderr } = await upload([address('req_1', '/live/1')], undefined, { progress: true, now: () => (clock += 1000) });
    const lines = stderr.trimEnd().split('\n');
    assert.equal(lines[0], `Uploading ${file.size} B`);
    assert.match(lines.at(-1)!, new RegExp(`^Uploading ${file.size} B .*100%`));
    assert.ok(result.durationMs >= 1000 && result.durationMs < 60_000, String(result.durationMs));
  });

  it('asks for another address, sending nothing, when ours has expired by our clock', async () => {
    const { result, stderr } = await upload([address('req_1', '/live/1', '2026-11-28T12:00:00Z'), address('req_2', '/live/2')]);
    assert.equal(result.issued, 'issued with req_2');
    assert.equal(result.addresses, 2);
    assert.deepEqual(asked, ['/live/2']);
    assert.match(stderr, /the upload address of req_1 expired at 2026-11-28T12:00:00Z; requesting another/);
  });

  it('asks for another when the store says the address has expired, and names the one that did', async () => {
    const { result, stderr } = await upload([address('req_1', '/expired/1'), address('req_2', '/live/2')]);
    assert.equal(result.addresses, 2);
    assert.deepEqual(asked, ['/expired/1', '/live/2']);
    assert.match(stderr, /the upload address of req_1 expired during the upload; requesting another/);
  });

  it("gives the store's clock the last word on the third address, then says nothing was sent and what to check", async () => {
    const late = '2026-11-28T11:00:00Z';
    await assert.rejects(upload([address('req_1', '/expired/1', late), address('req_2', '/expired/2', late), address('req_3', '/expired/3', late)]), (error: unknown) =>
      error instanceof CsafeError &&
      !(error instanceof PermissionDeniedError) &&
      /^the upload address expired 3 times \(last: .*\); nothing was sent$/.test(error.message) &&
      error.hint === "check this machine's clock, and whether the upload stalls");
    assert.deepEqual(asked, ['/expired/3']);
  });

  it('fails at once on a 403 that is no expiry', async () => {
    await assert.rejects(upload([address('req_1', '/denied/1'), address('req_2', '/live/2')]), (error: unknown) => error instanceof AddressRefusedError && (error as { issued?: number }).issued === 1);
  });

  it('names the address whose upload Ctrl-C cut short: what it was issued with exists', async () => {
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, '{"id":"d-1"}\n'.repeat(3_000_000));
    const interrupt = new AbortController();
    onHang = () => interrupt.abort();
    await assert.rejects(upload([address('req_1', '/stall/1')], interrupt.signal, { file: { path: big, size: readFileSync(big).length } }), (error: unknown) =>
      error instanceof InterruptedError && /^interrupted: req_1 was created, but its file was not uploaded$/m.test((error as { stderr?: string }).stderr ?? ''));
  });

  it('Ctrl-C once the whole file was sent, its answer awaited, says the address may have the file', async () => {
    const interrupt = new AbortController();
    onHang = () => interrupt.abort();
    await assert.rejects(upload([address('req_1', '/hang/1')], interrupt.signal), (error: unknown) =>
      error instanceof InterruptedError &&
      /^interrupted: req_1 was created and its file sent, but csafe left before the upload address answered: it may have the file$/m.test((error as { stderr?: string }).stderr ?? ''));
  });

  it('plans the upload after the request for its address in a dry run', async () => {
    const plan = new DryRunPlan();
    plan.requests.push({ method: 'POST', url: `${baseUrl}/v1/data/ns/import-requests`, headers: {} });
    const { io } = bufferIO();
    const http = new HttpClient({ baseUrl, apiKey: 'sk_test_secret_key', timeoutMs: 5000, retry: DEFAULT_RETRY_POLICY, userAgent: 'csafe/test', io, now: () => NOW, sleep: async () => {} });
    await assert.rejects(uploadBeforeExpiry({ http, io, now: () => NOW }, { ...file, name: 'objects.jsonl' }, 'application/json', async () => Promise.reject(new DryRunEnded(plan))), DryRunEnded);
    await http.close();
    assert.equal(plan.requests.length, 2);
    assert.deepEqual({ ...plan.requests[1], headers: undefined }, {
      method: 'PUT',
      url: null,
      url_from: 'the upload address in the answer to POST /v1/data/ns/import-requests',
      headers: undefined,
      body_file: 'objects.jsonl',
      body_bytes: file.size,
    });
    assert.equal(plan.requests[1]!.headers['content-type'], 'application/json');
  });
});
