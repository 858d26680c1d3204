import { readdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { checkBatchCsv } from '../../src/commands/batch/create/check-csv.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/cli.js';
import { bufferIO } from '../helpers/io.js';
import { waitFor } from '../helpers/wait.js';
import { manualClock, put, rawHttp, s3Code } from './data-support.js';
import { assertError, call, callOk, startTestEmulator, useTestEmulator, withEmulator } from './support.js';

interface Batch {
  batch_id: string;
  type: string;
  batch_status: string;
  upload_url: string | null;
  download_url: string | null;
  batch_count: number;
  success_count: number;
  pending_count: number;
  error_count: number;
  cancelled_count: number;
  error?: { message: string };
}

const CSV = { 'Content-Type': 'text/csv' };

/** Quoted commas, quotes and a line break, a BOM, CRLF, the caller's own columns, and an empty Content cell. */
const UPLOAD = [
  '\uFEFFid,Content,Expected result,source',
  '1,you are stupid,review,app',
  '2,"kill, he said ""now""",match,web',
  '3,"hello',
  'there",not_match,app',
  '4,,not_match,app',
  '',
].join('\r\n');

const RESULT = [
  'Content,Status,Service result,Expected result,Labels,id,source',
  'you are stupid,SUCCESS,review,review,,1,app',
  '"kill, he said ""now""",SUCCESS,match,match,violence,2,web',
  '"hello\r\nthere",SUCCESS,not_match,not_match,,3,app',
  ',ERROR,,not_match,,4,app',
  '',
].join('\n');

const createBatch = (emulator: RunningEmulator, type = 'text') => callOk<Batch>(emulator, 'POST', '/v1/batches', { json: { type } });
const getBatch = (emulator: RunningEmulator, id: string) => callOk<Batch>(emulator, 'GET', `/v1/batches/${id}`);

const waitForBatch = (emulator: RunningEmulator, id: string, done: (batch: Batch) => boolean, what: string) =>
  waitFor(async () => {
    const batch = await getBatch(emulator, id);
    return done(batch) && batch;
  }, { what: `batch ${id}: ${what}` });

const settled = (batch: Batch) => ['SUCCESS', 'ERROR', 'CANCELLED'].includes(batch.batch_status);

/** Uploads the CSV and waits until the batch has settled. */
async function runBatch(emulator: RunningEmulator, csv: string): Promise<Batch> {
  const created = await createBatch(emulator);
  const reply = await put(created.upload_url!, csv, CSV);
  assert.equal(reply.status, 200, reply.text);
  return waitForBatch(emulator, created.batch_id, settled, 'settled');
}

const counts = (batch: Batch) => [batch.batch_count, batch.success_count, batch.pending_count, batch.error_count, batch.cancelled_count];

describe('emulator: batches', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });

  test('POST /v1/batches issues a batch WAITING_FOR_UPLOAD with a 1-hour upload URL; a look-up shows upload_url null', async () => {
    const before = Date.now();
    const created = await createBatch(emulator, 'text');
    assert.match(created.batch_id, /^bat_[0-9a-f]{24}$/);
    assert.deepEqual({ ...created, upload_url: typeof created.upload_url }, {
      batch_id: created.batch_id,
      type: 'text',
      batch_status: 'WAITING_FOR_UPLOAD',
      upload_url: 'string',
      download_url: null,
    });
    const url = new URL(created.upload_url!);
    assert.equal(`${url.origin}${url.pathname}`, `${emulator.baseUrl}/_storage/batches/${created.batch_id}.csv`);
    const expires = Number(url.searchParams.get('X-Csafe-Expires')) * 1000;
    assert.ok(Math.abs(expires - before - 3600_000) < 5000);
    const found = await getBatch(emulator, created.batch_id);
    assert.deepEqual(found, { ...created, upload_url: null, batch_count: 0, success_count: 0, pending_count: 0, error_count: 0, cancelled_count: 0 });
  });

  test('a bad body is a 400 naming the field; an unknown batch is a 404', async () => {
    assertError(await call(emulator, 'POST', '/v1/batches', { json: {} }), 400, 'type');
    assertError(await call(emulator, 'POST', '/v1/batches', { json: { type: '' } }), 400, 'type');
    assertError(await call(emulator, 'POST', '/v1/batches', { json: { type: 7 } }), 400, 'type');
    assertError(await call(emulator, 'POST', '/v1/batches', { json: { type: 'text', file: 'a.csv' } }), 400, 'file');
    assertError(await call(emulator, 'POST', '/v1/batches'), 400);
    assertError(await call(emulator, 'GET', '/v1/batches/bat_000000000000000000000000'), 404);
    assertError(await call(emulator, 'GET', '/v1/batches/imp_000000000000000000000000'), 404);
  });

  test('a CSV is classified row by row: SUCCESS, the counts, and a result CSV behind a signed download_url', async () => {
    const done = await runBatch(emulator, UPLOAD);
    assert.equal(done.batch_status, 'SUCCESS', JSON.stringify(done));
    assert.equal(done.upload_url, null);
    assert.deepEqual(counts(done), [4, 3, 0, 1, 0]);
    const url = new URL(done.download_url!);
    assert.equal(`${url.origin}${url.pathname}`, `${emulator.baseUrl}/_storage/batch-results/${done.batch_id}.csv`);
    assert.ok(Math.abs(Number(url.searchParams.get('X-Csafe-Expires')) * 1000 - Date.now() - 3600_000) < 5000);
    const download = await fetch(done.download_url!);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'text/csv');
    const text = await download.text();
    assert.equal(download.headers.get('content-length'), String(Buffer.byteLength(text)));
    assert.equal(text, RESULT);
  });

  test('a CSV the service cannot read is ERROR, saying why', async () => {
    const cases: Array<[string, RegExp]> = [
      ['', /the CSV is empty/],
      ['\n\n', /the CSV is empty/],
      ['id,Text\n1,hello\n', /the header row has no Content column; its columns are: id, Text/],
      ['Content,id\nhello,1\nragged\n', /Invalid Record Length: expect 2, got 1 on line 3/],
      ['Content,id\n"unclosed,1\n', /Quote Not Closed/],
    ];
    for (const [csv, message] of cases) {
      const failed = await runBatch(emulator, csv);
      assert.equal(failed.batch_status, 'ERROR', csv);
      assert.match(failed.error!.message, message);
      assert.equal(failed.download_url, null);
      assert.deepEqual(counts(failed), [0, 0, 0, 0, 0]);
    }
  });

  test('a CSV whose reading stops early is closed: refusing many leaves no file open', async () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const rows = `Content,id\n${'hello,1\n'.repeat(20_000)}`;
    await runBatch(emulator, `id,Text\n${rows}`);
    const before = openFiles();
    for (let n = 0; n < 20; n++) assert.equal((await runBatch(emulator, `id,Text\n${rows}`)).batch_status, 'ERROR');
    for (let n = 0; n < 20; n++) assert.equal((await runBatch(emulator, `Content,id\nragged\n${rows}`)).batch_status, 'ERROR');
    assert.ok(openFiles() < before + 10, `${openFiles() - before} more files open than before`);
  });

  test('a header with no rows succeeds with a result CSV of the header alone', async () => {
    const done = await runBatch(emulator, 'Content,note\n');
    assert.equal(done.batch_status, 'SUCCESS');
    assert.equal(await (await fetch(done.download_url!)).text(), 'Content,Status,Service result,Expected result,Labels,note\n');
  });

  test('the upload follows the object-store rules: Content-Type text/csv, Content-Length, no Authorization', async () => {
    const created = await createBatch(emulator);
    const wrongType = await put(created.upload_url!, UPLOAD, { 'Content-Type': 'application/csv' });
    assert.equal(wrongType.status, 403);
    assert.equal(s3Code(wrongType.text), 'SignatureDoesNotMatch');
    const chunked = await rawHttp(created.upload_url!, 'PUT {path} HTTP/1.1\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked', '7\r\nContent\r\n0\r\n\r\n');
    assert.equal(s3Code(chunked), 'MissingContentLength');
    const withKey = await put(created.upload_url!, UPLOAD, { ...CSV, Authorization: `Bearer ${emulator.apiKey}` });
    assert.equal(s3Code(withKey.text), 'InvalidArgument');
    assert.equal((await getBatch(emulator, created.batch_id)).batch_status, 'WAITING_FOR_UPLOAD');
  });

  test('the download URL is signed: an Authorization header or another signature is refused', async () => {
    const done = await runBatch(emulator, UPLOAD);
    const withKey = await fetch(done.download_url!, { headers: { Authorization: `Bearer ${emulator.apiKey}` } });
    assert.equal(withKey.status, 400);
    const tampered = new URL(done.download_url!);
    tampered.searchParams.set('X-Csafe-Expires', String(Number(tampered.searchParams.get('X-Csafe-Expires')) + 60));
    const forged = await fetch(tampered);
    assert.equal(forged.status, 403);
    assert.equal(s3Code(await forged.text()), 'SignatureDoesNotMatch');
  });

  test('quirks: expired_upload_urls hands a new batch an expired upload URL; expired_download_urls an expired download URL', async () => {
    await call(emulator, 'POST', '/_emulator/quirks', { json: { expired_upload_urls: 1 } });
    const expired = await createBatch(emulator);
    const refused = await put(expired.upload_url!, UPLOAD, CSV);
    assert.equal(refused.status, 403);
    assert.equal(s3Code(refused.text), 'AccessDenied');

    const done = await runBatch(emulator, UPLOAD);
    await call(emulator, 'POST', '/_emulator/quirks', { json: { expired_download_urls: 1 } });
    const stale = await getBatch(emulator, done.batch_id);
    const staleReply = await fetch(stale.download_url!);
    assert.equal(staleReply.status, 403);
    assert.equal(s3Code(await staleReply.text()), 'AccessDenied');
    const fresh = await getBatch(emulator, done.batch_id);
    assert.equal(await (await fetch(fresh.download_url!)).text(), RESULT);
    assertError(await call(emulator, 'POST', '/_emulator/quirks', { json: { expired_download_urls: -1 } }), 400, 'expired_download_urls');
  });

  test('cancel: a batch waiting for its upload is CANCELLED and stays so after an upload; a settled one is a 409', async () => {
    const created = await createBatch(emulator);
    const reply = await call(emulator, 'POST', `/_emulator/batches/${created.batch_id}/cancel`);
    assert.equal(reply.status, 200);
    assert.equal((reply.body as Batch).batch_status, 'CANCELLED');
    assert.equal((await put(created.upload_url!, UPLOAD, CSV)).status, 200);
    const found = await getBatch(emulator, created.batch_id);
    assert.equal(found.batch_status, 'CANCELLED');
    assert.deepEqual(counts(found), [0, 0, 0, 0, 0]);
    assertError(await call(emulator, 'POST', `/_emulator/batches/${created.batch_id}/cancel`), 409);
    assertError(await call(emulator, 'POST', '/_emulator/batches/bat_000000000000000000000000/cancel'), 404);
    assertError(await call(emulator, 'POST', `/_emulator/batches/${created.batch_id}/cancel`, { key: null }), 401);
  });

  test('cancel racing the upload: a batch answered CANCELLED stays CANCELLED, its counts adding up', async () => {
    const cancelled: string[] = [];
    for (let attempt = 0; attempt < 60; attempt++) {
      const created = await createBatch(emulator);
      const [upload, cancel] = await Promise.all([
        put(created.upload_url!, 'Content\nhello\n', CSV),
        call(emulator, 'POST', `/_emulator/batches/${created.batch_id}/cancel`),
      ]);
      assert.equal(upload.status, 200, upload.text);
      // A cancel that came after processing had ended is a 409: nothing to check.
      if (cancel.status === 409) continue;
      assert.equal((cancel.body as Batch).batch_status, 'CANCELLED');
      cancelled.push(created.batch_id);
    }
    assert.ok(cancelled.length > 0);
    // One more batch run to its end: processing that had wrongly gone on would have ended by then too.
    await runBatch(emulator, 'Content\nhello\n');
    for (const id of cancelled) {
      const batch = await getBatch(emulator, id);
      assert.equal(batch.batch_status, 'CANCELLED', JSON.stringify(batch));
      assert.equal(batch.success_count + batch.error_count + batch.cancelled_count, batch.batch_count, JSON.stringify(batch));
      assert.equal(batch.pending_count, 0);
    }
  });

  test('quirk unknown_values: the batch carries a field the spec does not list', async () => {
    const created = await createBatch(emulator);
    await call(emulator, 'POST', '/_emulator/quirks', { json: { unknown_values: true } });
    assert.equal((await getBatch(emulator, created.batch_id) as unknown as { priority: string }).priority, 'normal');
  });

  test('reset forgets batches, their uploads and results', async () => {
    const done = await runBatch(emulator, UPLOAD);
    const waiting = await createBatch(emulator);
    await call(emulator, 'POST', '/_emulator/reset');
    assertError(await call(emulator, 'GET', `/v1/batches/${done.batch_id}`), 404);
    assert.equal(s3Code(await (await fetch(done.download_url!)).text()), 'NoSuchKey');
    assert.equal(s3Code((await put(waiting.upload_url!, UPLOAD, CSV)).text), 'NoSuchUpload');
  });
});

describe('emulator: a CSV read as `batch create` checks it', () => {
  const emulator = useTestEmulator({ processingDelayMs: 0 });
  /** Files the client's check accepts: the emulator must see the same rows in each. */
  const accepted: Record<string, string> = {
    'LF': 'Content,n\na,1\nb,2\n',
    'CRLF': 'Content,n\r\na,1\r\nb,2\r\n',
    'CR': 'Content,n\ra,1\rb,2\r',
    'CRLF, then LF': 'Content,n\r\na,1\nb,2\r\n',
    'LF, then CRLF': 'Content,n\na,1\r\nb,2\n',
    'a lone CR among LF': 'Content\na\rb\nc\n',
    'line breaks of each kind quoted': '\uFEFFContent,n\r"a\r\nb",1\n"c\rd",2\r"e\nf",3\r\n',
    'blank lines of each kind, no final line end': 'Content,n\n\r\n\ra,1\n\nb,2',
    'a quoted empty line in a one-column file': 'Content\na\n""\nb\n',
  };

  test('batch_count is the number of rows the check counted, for every line end and their mixes', async () => {
    for (const [what, csv] of Object.entries(accepted)) {
      const source = { name: 'in.csv', open: () => Readable.from([Buffer.from(csv)]) };
      const checked = await checkBatchCsv(source, bufferIO().io, new AbortController().signal);
      const done = await runBatch(emulator, csv);
      assert.deepEqual([done.batch_status, done.batch_count, done.success_count], ['SUCCESS', checked, checked], `${what}: ${JSON.stringify(done)}`);
    }
  });
});

describe('emulator: batch processing over --processing-delay', () => {
  const emulator = useTestEmulator({ processingDelayMs: 3000 });
  const rows = (n: number) => ['Content', ...Array.from({ length: n }, (_, i) => `row ${i}`)].join('\n') + '\n';

  test('PENDING once the CSV lands, with the counts current while it runs; cancelled mid-way, the rest count as cancelled', async () => {
    const created = await createBatch(emulator);
    assert.equal((await put(created.upload_url!, rows(30), CSV)).status, 200);
    assert.equal((await getBatch(emulator, created.batch_id)).batch_status, 'PENDING');
    const running = await waitForBatch(emulator, created.batch_id, (b) => b.success_count > 0 && b.pending_count > 0, 'part done');
    assert.equal(running.batch_status, 'PENDING');
    assert.equal(running.batch_count, 30);
    assert.equal(running.download_url, null);
    const reply = await call(emulator, 'POST', `/_emulator/batches/${created.batch_id}/cancel`);
    assert.equal(reply.status, 200);
    const cancelled = await getBatch(emulator, created.batch_id);
    assert.deepEqual(cancelled, reply.body);
    assert.equal(cancelled.batch_status, 'CANCELLED');
    assert.equal(cancelled.download_url, null);
    assert.ok(cancelled.cancelled_count > 0 && cancelled.success_count > 0, JSON.stringify(cancelled));
    assert.equal(cancelled.success_count + cancelled.cancelled_count, 30);
    assert.equal(cancelled.pending_count, 0);
  });

  test('a cancel as soon as the CSV lands, while its rows may still be counted, gives batch_count all of them, cancelled', async () => {
    const created = await createBatch(emulator);
    assert.equal((await put(created.upload_url!, rows(50_000), CSV)).status, 200);
    const reply = await call(emulator, 'POST', `/_emulator/batches/${created.batch_id}/cancel`);
    assert.equal(reply.status, 200);
    const cancelled = reply.body as Batch;
    assert.deepEqual([cancelled.batch_status, cancelled.batch_count], ['CANCELLED', 50_000]);
    assert.equal(cancelled.success_count + cancelled.cancelled_count, 50_000);
    assert.deepEqual(await getBatch(emulator, created.batch_id), cancelled);
  });

  test('a reset while a batch is processed (its CSV still being read) stops it and the emulator goes on answering', async () => {
    const created = await createBatch(emulator);
    assert.equal((await put(created.upload_url!, rows(100_000), CSV)).status, 200);
    await waitForBatch(emulator, created.batch_id, (b) => b.success_count > 0 && b.pending_count > 0, 'part done');
    assert.equal((await call(emulator, 'POST', '/_emulator/reset')).status, 200);
    assertError(await call(emulator, 'GET', `/v1/batches/${created.batch_id}`), 404);
    const after = await createBatch(emulator);
    assert.equal((await getBatch(emulator, after.batch_id)).batch_status, 'WAITING_FOR_UPLOAD');
  });
});

describe('emulator: batch URL expiry', () => {
  const clock = manualClock();
  const emulator = useTestEmulator({ now: clock.now, processingDelayMs: 0 });

  test('past 1 hour the upload URL and the download URL are 403 AccessDenied; a new look-up gives a working download URL', async () => {
    const late = await createBatch(emulator);
    const done = await runBatch(emulator, UPLOAD);
    clock.advance(3600_000);
    assert.equal(s3Code((await put(late.upload_url!, UPLOAD, CSV)).text), 'AccessDenied');
    const expired = await fetch(done.download_url!);
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /<Code>AccessDenied<\/Code><Message>Request has expired/);
    const again = await getBatch(emulator, done.batch_id);
    assert.equal(await (await fetch(again.download_url!)).text(), RESULT);
  });
});

describe('emulator: batches in the data directory', () => {
  test('a restarted emulator answers for earlier batches, serves their results, and finishes one it was processing', async () => {
    const dataDir = tempDir('csafe-emulator-batches-');
    const done = await withEmulator({ dataDir }, (emulator) => runBatch(emulator, UPLOAD));
    const interrupted = await withEmulator({ dataDir, processingDelayMs: 60_000 }, async (emulator) => {
      const created = await createBatch(emulator);
      await put(created.upload_url!, UPLOAD, CSV);
      return waitForBatch(emulator, created.batch_id, (b) => b.batch_count === 4, 'counted');
    });
    assert.equal(interrupted.batch_status, 'PENDING');
    await withEmulator({ dataDir }, async (emulator) => {
      for (const id of [done.batch_id, interrupted.batch_id]) {
        const finished = await waitForBatch(emulator, id, settled, 'settled after the restart');
        assert.equal(finished.batch_status, 'SUCCESS');
        assert.deepEqual(counts(finished), [4, 3, 0, 1, 0]);
        assert.ok(finished.download_url!.startsWith(emulator.baseUrl));
        assert.equal(await (await fetch(finished.download_url!)).text(), RESULT);
      }
    });
  });

  test('fault injection applies to the batch routes', async () => {
    const faulty = await startTestEmulator({ faults: { rate: 1, kinds: ['503'], seed: 1, delayMs: 0 } });
    try {
      assertError(await call(faulty, 'POST', '/v1/batches', { json: { type: 'text' } }), 503);
      assertError(await call(faulty, 'GET', '/v1/batches/bat_000000000000000000000000'), 503);
    } finally {
      await faulty.close();
    }
  });
});
