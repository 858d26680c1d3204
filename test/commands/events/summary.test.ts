import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportSummary, summarise } from '../../../src/commands/events/send/summary.js';
import { emptyCounts } from '../../../src/core/bulk/counts.js';
import { bufferIO } from '../../helpers/io.js';

test('events send summary counts one failed event in the singular, as the other bulk commands do', async () => {
  const { io, stderr } = bufferIO();
  const summary = summarise({ ...emptyCounts(), read: 2, valid: 2, sent: 1, failed: 1 }, { input: 'e.jsonl', durationMs: 1000, failedFile: 'failed.jsonl' });
  await reportSummary(io, summary, undefined);
  assert.match(stderr(), /^1 event written to failed\.jsonl: resend them with `csafe events send failed\.jsonl`$/m);
});
