import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import { streamWatchRun } from '../../../src/commands/stream/watch.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { commandTest, exitCodeOf, jsonBody } from '../../helpers/context.js';

test('stream watch posts {id, stream_url} and prints the accepted request as JSON with --json', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  run.expect({ method: 'POST', path: '/v1/streams/live', body: jsonBody({ id: 'show-42', stream_url: 'https://example.com/live/42.m3u8' }) });

  assert.equal(await exitCodeOf(streamWatchRun(run.ctx, 'live', { id: 'show-42', url: 'https://example.com/live/42.m3u8' })), ExitCode.ok);

  const accepted = JSON.parse(run.stdout()) as { requestId: string; status: string };
  assert.match(accepted.requestId, /^req_/);
  assert.equal(accepted.status, 'accepted');
});

test('stream watch prints a table without borders on a terminal', async (t) => {
  const run = await commandTest(t, { tty: true });
  run.expect({ method: 'POST', path: '/v1/streams/live', body: jsonBody({ id: 'show-43', stream_url: 'rtmp://ingest.example.com/live/43' }) });

  assert.equal(await exitCodeOf(streamWatchRun(run.ctx, 'live', { id: 'show-43', url: 'rtmp://ingest.example.com/live/43' })), ExitCode.ok);

  assert.match(stripVTControlCharacters(run.stdout()), /^REQUEST_ID {2,}STATUS\nreq_\w+ {2,}accepted\n$/);
  assert.match(run.stdout(), /^\u001b\[1mREQUEST_ID/, 'the header is bold on a terminal');
});

test('stream watch refuses an address of another scheme or a relative one before sending, naming --url and the schemes', async (t) => {
  const run = await commandTest(t);
  for (const url of ['ftp://example.com/live', '/live/42.m3u8', 'example.com/live', '']) {
    await assert.rejects(streamWatchRun(run.ctx, 'live', { id: 'show-42', url }), (error: unknown) =>
      error instanceof UsageError && error.message === `--url: expected an absolute http, https, rtmp, rtmps, rtsp or srt URL, got ${JSON.stringify(url)}`);
  }
  // A key in the address is not echoed: the message may end up in a CI log.
  await assert.rejects(streamWatchRun(run.ctx, 'live', { id: 'show-42', url: 'rtmpx://me:pw@ingest.example.com/live?token=s3cret&v=1' }), (error: unknown) =>
    error instanceof UsageError && error.message.endsWith('URL, got "rtmpx://[REDACTED]@ingest.example.com/live?token=[REDACTED]&v=1"'));
  await assert.rejects(streamWatchRun(run.ctx, 'live', { id: 'show-42' }), (error: unknown) => error instanceof UsageError && /^--url: is required: expected an absolute http, https, rtmp, rtmps, rtsp or srt URL$/.test(error.message));
  await assert.rejects(streamWatchRun(run.ctx, 'live', { url: 'https://x/live' }), (error: unknown) => error instanceof UsageError && /^--id: is required/.test(error.message));
});
