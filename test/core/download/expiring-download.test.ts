import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { AddressRefusedError, CsafeError, ExitCode, PermissionDeniedError } from '../../../src/core/errors.js';
import { exitCodeOfError } from '../../../src/main.js';
import { downloadBeforeExpiry, type DownloadAddress } from '../../../src/core/download/expiring-download.js';
import { HttpClient } from '../../../src/core/http/client.js';
import { DEFAULT_RETRY_POLICY } from '../../../src/core/http/retry.js';
import { bufferIO } from '../../helpers/io.js';
import { closeServer, listenOnLoopback } from '../../helpers/server.js';

const EXPIRED = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
const POLICY = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';

/** A real local object store: an address `/live/N` answers its body, `/expired/N` the store's 403 for a late address, `/denied/N` another 403. */
describe('downloadBeforeExpiry', () => {
  let server: Server;
  let baseUrl: string;
  const asked: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      asked.push(req.url!);
      if (req.url!.startsWith('/live/')) return void res.writeHead(200, { 'content-type': 'text/csv' }).end('id,label\nc-1,ok\n');
      res.writeHead(403, { 'content-type': 'application/xml' }).end(req.url!.startsWith('/expired/') ? EXPIRED : POLICY);
    });
    baseUrl = await listenOnLoopback(server);
  });
  after(() => closeServer(server));

  /** Downloads with the store at baseUrl: `first` is the address looked up first, `fresh` those each later lookup gives. */
  async function download(first: DownloadAddress, fresh: DownloadAddress[], now = 1_000) {
    asked.length = 0;
    const { io, stderr } = bufferIO();
    const http = new HttpClient({ baseUrl, apiKey: 'sk_test_secret_key', timeoutMs: 5000, retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 }, userAgent: 'csafe/test', io, now: () => now, sleep: async () => {} });
    let lookups = 0;
    let body = '';
    const onBody = async (stream: Readable) => {
      for await (const chunk of stream) body += chunk;
    };
    try {
      await downloadBeforeExpiry({ http, io, now: () => now }, { id: 'bat_1', holder: 'batch', again: 'csafe batch download bat_1', address: first, lookUp: async () => fresh[lookups++]! }, onBody);
      return { body, lookups, stderr: stderr(), asked: [...asked] };
    } finally {
      await http.close();
    }
  }
  const at = (path: string, expiresAt = 2_000): DownloadAddress => ({ url: `${baseUrl}${path}`, expiresAt });

  it('downloads from a live address without another lookup', async () => {
    const run = await download(at('/live/1'), []);
    assert.deepEqual({ body: run.body, lookups: run.lookups, asked: run.asked, stderr: run.stderr }, { body: 'id,label\nc-1,ok\n', lookups: 0, asked: ['/live/1'], stderr: '' });
  });

  it('looks the record up again, without asking the store, for an address expired by our clock', async () => {
    const run = await download(at('/expired/1', 500), [at('/live/2')]);
    assert.equal(run.body, 'id,label\nc-1,ok\n');
    assert.deepEqual(run.asked, ['/live/2']);
    assert.equal(run.lookups, 1);
    assert.match(run.stderr, /the download address of bat_1 has expired; looking the batch up again/);
  });

  it("looks it up again when the store says the address has expired although our clock says it has not", async () => {
    const run = await download(at('/expired/1'), [at('/live/2')]);
    assert.deepEqual(run.asked, ['/expired/1', '/live/2']);
    assert.equal(run.body, 'id,label\nc-1,ok\n');
  });

  it("gives the store's clock the last word on the last lookup, and after three expired addresses says what to check and how to run again", async () => {
    await assert.rejects(download(at('/expired/1', 0), [at('/expired/2', 0), at('/expired/3', 0)]), (error: unknown) =>
      error instanceof CsafeError &&
      !(error instanceof PermissionDeniedError) &&
      /^the download address of bat_1 expired 3 times \(last: /.test(error.message) &&
      error.hint === "check this machine's clock, and whether the download stalls; then run again: csafe batch download bat_1");
    assert.deepEqual(asked, ['/expired/3'], 'only the last address, expired by our clock too, is asked');
  });

  it('fails at once on a 403 that is no expiry: a fresh address would be refused the same; exit 1, as the key was accepted', async () => {
    await assert.rejects(download(at('/denied/1'), [at('/live/2')]), (error: unknown) =>
      error instanceof AddressRefusedError && !(error instanceof PermissionDeniedError) && exitCodeOfError(error) === ExitCode.failure &&
      // Not 'run again': run again, batch create --wait --download would send another batch.
      error.hint?.endsWith('the address itself was refused: get a fresh one with: csafe batch download bat_1') === true);
    assert.deepEqual(asked, ['/denied/1']);
  });
});
