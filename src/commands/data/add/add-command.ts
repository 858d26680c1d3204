import { DRY_RUN_FLAG } from '../../../core/cli/flags.js';
import { batchFlags, shardFlag } from '../../../core/cli/bulk-flags.js';
import { SERVICE_VARIABLES } from '../../../core/cli/help.js';
import { waitFlags } from '../../../core/cli/wait-flags.js';
import type { VerbDecl } from '../../declaration.js';

// `csafe data add`: its declaration — flags, help and examples.

export const dataAdd = {
  name: 'add',
  description: 'Add objects to a namespace in batches (POST /v1/data/{namespace}); with --wait, print each object\'s labels',
  args: [
    { name: '<namespace>', help: 'the namespace (created on first use)' },
    { name: '[file]', help: 'JSON Lines, a JSON array, or one JSON object, each object with a string "id"; `-` or none reads stdin' },
  ],
  flags: {
    dryRun: DRY_RUN_FLAG,
    batchSize: batchFlags.batchSize('objects'),
    flushInterval: batchFlags.flushInterval('object', 'with --skip-invalid, from a pipe: '),
    /** Under the service's 6 MB request limit, with room to spare. */
    maxBatchBytes: batchFlags.maxBatchBytes(5_000_000),
    concurrency: batchFlags.concurrency(),
    shard: shardFlag('the objects'),
    checkpoint: batchFlags.checkpoint('objects'),
    failed: batchFlags.failed('append the objects of batches that could not be sent, as sent', 'data-add'),
    skipInvalid: batchFlags.skipInvalid('send the valid objects; append each invalid record here as {line, error, record}'),
    maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
    maxRate: batchFlags.maxRate(),
    schema: { type: 'text', value: 'file', help: 'a namespace schema, as `settings put` takes it, sent with every batch and applied to the namespace (checked before anything is sent)' },
    ...waitFlags('wait until every request has finished, then print each request as `data status` prints it (its objects with their labels and url)', '30m'),
  },
  details: `
Every object is checked before the first request; an invalid one is named as file:line: field.
Prints one record per request (request id, status, objects, first and last line) as soon as the
service accepts it (one JSON line each in a pipe, a table at the end on a terminal); with --wait,
each request as \`data status\` prints it instead, in input order, once it and those before it have
ended (one JSON line per request in a pipe; one table row per object on a terminal, at the end). With --checkpoint, a batch that failed is not done:
the same command run again sends it (and everything not yet accepted), skipping what was. Exit
codes: the table of \`csafe --help\`, as for every bulk command; 1 also when a request ended
failed (--wait).
Once --max-consecutive-failures requests in a row could not reach the service, sending stops:
one line says so, the objects not sent are in the failed file, exit 1. Ctrl-C (exit 130) or
SIGTERM (143) prints what was accepted and the command that continues: the same command line,
which with --checkpoint sends only what was not accepted.

With --shard i/n, only the objects whose id hashes to shard i are sent: n workers given 0/n …
n-1/n add the file exactly once between them. A checkpoint belongs to one shard.`,
  examples: [
    'csafe data add listings examples/listings.jsonl --wait',
    'csafe data add listings examples/listings.jsonl --checkpoint state.json --failed failed.jsonl',
    'csafe data add listings examples/listings.jsonl --shard 1/4 --checkpoint state-1.json',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
