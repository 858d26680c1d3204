import { DRY_RUN_FLAG } from '../../../core/cli/flags.js';
import { batchFlags, shardFlag } from '../../../core/cli/bulk-flags.js';
import { SERVICE_VARIABLES } from '../../../core/cli/help.js';
import type { VerbDecl } from '../../declaration.js';

// `csafe events send`: its declaration — flags, help and examples.

export const eventsSend = {
  name: 'send',
  description: 'Validate backend events and queue them in ordered batches (POST /v1/async/events)',
  args: [{ name: '[file]', help: 'JSON Lines, a JSON array, or one JSON object; `-` or none reads stdin' }],
  flags: {
    dryRun: DRY_RUN_FLAG,
    sync: { type: 'switch', help: 'ingest each batch before the answer (POST /v1/events) and print each event\'s id' },
    checkpoint: batchFlags.checkpoint('events'),
    failed: batchFlags.failed('append the events of batches that could not be sent, as sent', 'events'),
    unconfirmed: batchFlags.unconfirmed('append the events without an idempotency_key of batches whose answer was lost (the service may hold them): not safe to resend', 'events'),
    skipInvalid: batchFlags.skipInvalid('send the valid events; append each invalid record here as {line, error, record}'),
    allowUnknownTypes: { type: 'switch', help: 'pass events of a type the spec does not show through unchecked' },
    autoIdempotency: { type: 'switch', negate: true, help: 'do not add a content-derived idempotency_key to events without one' },
    batchSize: batchFlags.batchSize('events'),
    flushInterval: batchFlags.flushInterval('event', 'with --skip-invalid, from a pipe: '),
    maxBatchBytes: batchFlags.maxBatchBytes(1_000_000),
    concurrency: batchFlags.concurrency('; events of one user always share one'),
    maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
    maxRate: batchFlags.maxRate(),
    shard: shardFlag('the users'),
  },
  details: `
Each user's events arrive in file order. Exit codes: the table of \`csafe --help\`, as for every
bulk command; when sending stops (a refused key, a Retry-After over --max-wait), the unsent
events are in the failed file. Once --max-consecutive-failures requests in a row could not reach
the service, sending stops: one line says so, the events not sent are in the failed file, exit 1.
Ctrl-C (exit 130) or SIGTERM (143) prints what was sent and the command that continues: the
same command line, which with --checkpoint sends only what was not acknowledged. With
--no-auto-idempotency and no --checkpoint (nor --skip-invalid), the events not sent go to the
failed file instead, and the command printed sends that file.

With --sync, stdout lists each ingested event with its input line and the service's event_id:
one NDJSON line per event, {"line":12,"event_id":"…"}, as each batch is acknowledged when piped
(--json: the same objects as one array); a table on a terminal. The summary then goes to stderr only.`,
  examples: [
    'csafe events send examples/events.jsonl --dry-run',
    'csafe events send examples/events.jsonl --checkpoint state.json --failed failed.jsonl',
    'csafe events send examples/events.jsonl --concurrency 8 --shard 3/16',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
