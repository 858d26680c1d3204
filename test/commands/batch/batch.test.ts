import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { getBatch } from '../../../src/api/batches.js';
import { batchCreateRun } from '../../../src/commands/batch/create/create.js';
import { downloadResult } from '../../../src/commands/batch/download/fetch.js';
import { ExitCode, InputError } from '../../../src/core/errors.js';
import { BATCH_STATUSES, type Batch } from '../../../src/schemas/batches.js';
import { commandTest, exitCodeOf, type CommandTest } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';

const CSV = 'Content,source\n"hello, there",app\n"say ""hi""",web\n';
const BATCH = /^\/v1\/batches\/[\w-]+$/;
const UPLOAD = /^\/_storage\/batches\/[\w-]+\.csv$/;
const notWaiting = { wait: false, timeoutMs: Infinity };

/** Waits in real time (the emulator's processing runs in it, not on the fixed clock) until the batch has settled. */
async function settled(run: CommandTest, id: string) {
  const http = await run.ctx.http();
  return waitFor(async () => {
    const batch = await getBatch(http, id);
    return !(BATCH_STATUSES.running as readonly string[]).includes(batch.batch_status) && batch;
  }, { what: `batch ${id} to be processed` });
}

function inputFile(run: CommandTest, content = CSV): string {
  const path = join(run.dir, 'reviews.csv');
  writeFileSync(path, content);
  return path;
}

test('batch create checks the CSV, creates the batch and PUTs the file byte for byte, then prints the upload', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, emulator: { processingDelayMs: 0 } });
  run.expect({ method: 'POST', path: '/v1/batches' }, { method: 'PUT', path: UPLOAD, body: (text) => text === CSV }, { method: 'GET', path: BATCH, times: 'many' });

  assert.equal(await exitCodeOf(batchCreateRun(run.ctx, 'text', inputFile(run), notWaiting)), ExitCode.ok);

  const summary = JSON.parse(run.stdout()) as Record<string, unknown>;
  assert.equal(summary.type, 'text');
  assert.equal(summary.rows, 2);
  assert.equal(summary.bytes, Buffer.byteLength(CSV));
  assert.equal(summary.batch_requests, 1);
  // The emulator's processing has ended before it closes.
  await settled(run, String(summary.batch_id));
});

test('batch create refuses a bad CSV before sending anything', async (t) => {
  const run = await commandTest(t);
  await assert.rejects(batchCreateRun(run.ctx, 'text', inputFile(run, 'Content,source\nok\n'), notWaiting), InputError);
  assert.match(run.stderr(), /reviews\.csv:2: has 1 field, the header has 2/);
});

test('batch download looks the batch up again when its download address has expired', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, emulator: { processingDelayMs: 0 } });
  assert.equal(await exitCodeOf(batchCreateRun(run.ctx, 'text', inputFile(run), notWaiting)), ExitCode.ok);
  const id = (JSON.parse(run.stdout()) as { batch_id: string }).batch_id;
  const stale = await settled(run, id);
  run.clock.advance(2 * 3_600_000);
  await run.forgetRequests();
  // The stale address (403), the batch looked up again, the fresh address.
  run.expect({ method: 'GET', path: `/_storage/batch-results/${id}.csv`, times: 2 }, { method: 'GET', path: `/v1/batches/${id}` });

  await downloadResult(run.ctx, stale, { path: join(run.dir, 'out.csv') });

  assert.match(readFileSync(join(run.dir, 'out.csv'), 'utf8'), /^Content,Status,Service result,Expected result,Labels,source\r?\n/);
  assert.match(run.stderr(), new RegExp(`the download address of ${id} has expired; looking the batch up again`));
});

test('batch download sends no Authorization to the pre-signed address and keeps its signature out of errors', async (t) => {
  const run = await commandTest(t);
  const seen: IncomingHttpHeaders[] = [];
  const store = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>SignatureDoesNotMatch</Code><Message>no</Message></Error>');
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => store.close(() => resolve())));
  const { port } = store.address() as AddressInfo;
  const batch = { batch_id: 'bat_1', batch_status: 'SUCCESS', download_url: `http://127.0.0.1:${port}/r.csv?X-Amz-Credential=CREDSECRET&X-Amz-Signature=SIGSECRET` } as Batch;

  const error = await downloadResult(run.ctx, batch, {}).then(() => undefined, (failure: unknown) => failure as Error);
  assert.match(String(error?.message), /403/);
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.authorization, undefined);
  assert.doesNotMatch(`${error?.message} ${run.stderr()} ${run.stdout()}`, /SIGSECRET|CREDSECRET/);
});
