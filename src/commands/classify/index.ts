import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { batchFlags, fromLineFlag, shardFlag } from '../../core/cli/bulk-flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { CURRENT_VERSION, LEGACY_VERSION, SERVICE_VERSIONS } from '../../schemas/names.js';
import type { VerbDecl } from '../declaration.js';

/**
 * Each line is a request of its own, answered independently of the others, and holds only a line
 * and its result: more may be in flight than for the commands that send batches of up to 6 MB (64).
 */
const MAX_CLASSIFY_CONCURRENCY = 256;

/** `csafe classify`: a group that is itself a command. */
export const classify = {
  name: 'classify',
  description: 'Classify text and images synchronously (POST /v1/content)',
  args: [{ name: '[files...]', help: 'text files and images (PNG, JPEG, GIF, WebP); `-`, or none with no --text and stdin piped, reads stdin; an empty file is refused (exit 2)' }],
  flags: {
    dryRun: DRY_RUN_FLAG,
    text: { type: 'text', value: 'text', help: 'text to classify (repeatable); empty or only white space is refused (exit 2)', repeat: true },
    userId: { type: 'text', value: 'id', help: 'stable identifier of the user (default: config user_id)' },
    contentId: { type: 'text', value: 'id', help: 'your identifier for the content' },
    metadata: { type: 'text', value: 'key=value|@file.json', help: 'metadata (repeatable), at most 8 KB serialized', repeat: true },
    apiVersion: { type: 'choice', value: 'version', help: `service version: ${CURRENT_VERSION} (current) or ${LEGACY_VERSION}`, choices: SERVICE_VERSIONS },
    each: { type: 'switch', help: 'one request per file, each file\'s labels under its name, in the order given (--concurrency at once); without it, all inputs are one piece of content' },
    failOn: { type: 'choice', value: 'decision', help: 'exit 4 when any label reaches match, or review (review includes match)', choices: ['match', 'review'] as const },
    batch: { type: 'text', value: 'file.jsonl', help: 'classify each line of a JSONL file (`-` for stdin); results as NDJSON in a pipe, one array with --json' },
    concurrency: batchFlags.concurrency(` with --batch or --each, at most ${MAX_CLASSIFY_CONCURRENCY}`, MAX_CLASSIFY_CONCURRENCY),
    failed: batchFlags.failed('with --batch: append each line that failed here, as read, to classify again', 'classify'),
    skipInvalid: batchFlags.skipInvalid('with --batch: send the valid lines; append each invalid line here as {line, error, record}'),
    maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
    maxRate: batchFlags.maxRate('with --batch: '),
    checkpoint: batchFlags.checkpoint('lines', 'with --batch: '),
    fromLine: fromLineFlag('with --batch: '),
    shard: shardFlag('the lines', 'with --batch: '),
  },
  details: `
With --batch, the run stops once --max-consecutive-failures requests in a row could not reach
the service: one line says so, the lines not classified go to the --failed file, exit 1. Ctrl-C
(exit 130) or SIGTERM (143) prints what was done and the command that continues: with
--checkpoint the same one (the lines answered are not sent, nor printed, again: append its NDJSON
output with >>; --json is one array per run), without it the same one with --from-line set to the first line not done.`,
  examples: [
    'csafe classify examples/post.txt examples/photo.png --user-id u1',
    `csafe classify --text "hello" --user-id u1 --json | jq '.labels[] | select(.decision=="match")'`,
    'csafe classify --batch examples/items.jsonl --user-id u1 --shard 0/2',
  ],
  environment: [...SERVICE_VARIABLES, 'CSAFE_USER_ID', 'COLUMNS'],
} satisfies VerbDecl;
