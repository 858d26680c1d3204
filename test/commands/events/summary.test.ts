import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportSummary, summarise } from '../../../src/commands/events/send/summary.js';
import { emptyCounts } from '../../../src/core/bulk/counts.js';
import { bufferIO } from '../../helpers/io.js';

test('events send summary counts one failed event in the singular, as the other bulk commands do', async () => {
  const { io, stderr } = bufferIO();
  const summary = summarise({ ...emptyCounts(), read: 2, valid: 2, sent: 1, failed: 1 }, { input: 'e.jsonl', durationMs: 1000, failedFile: 'failed.jsonl' });
  await reportSummary(io, summary, undefined, ['events', 'send', 'e.jsonl']);
  assert.match(stderr(), /^1 event written to failed\.jsonl: resend them with `csafe events send failed\.jsonl`$/m);
});

test('the command that resends keeps the run\'s global flags, wherever given, so it goes to the same service: the key itself stays out', async () => {
  const { io, stderr } = bufferIO();
  const summary = summarise({ ...emptyCounts(), read: 2, valid: 2, sent: 1, failed: 1 }, { input: 'e.jsonl', durationMs: 1000, failedFile: 'failed.jsonl' });
  const argv = ['--profile', 'staging', 'events', 'send', 'e.jsonl', '--base-url=https://staging.example', '--api-key', 'sk_live_abcdef', '--api-key-file', 'key file', '--concurrency', '2', '-q'];
  await reportSummary(io, summary, undefined, argv);
  assert.match(stderr(), /resend them with `csafe --profile staging --base-url=https:\/\/staging\.example --api-key-file 'key file' -q events send failed\.jsonl`$/m);
});
