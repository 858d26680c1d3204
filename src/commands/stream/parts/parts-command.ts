import { DRY_RUN_FLAG } from '../../../core/cli/flags.js';
import { batchFlags } from '../../../core/cli/bulk-flags.js';
import { SERVICE_VARIABLES } from '../../../core/cli/help.js';
import type { VerbDecl } from '../../declaration.js';

// `csafe stream parts`: its declaration — flags, help and examples.

const ORDERED = "stream parts has none: one stream's parts are sent in order, one request at a time; to spread the work, run one command per stream (--id)";

export const streamParts = {
  name: 'parts',
  description: 'Append parts to a stream (POST /v1/streams/{namespace}/parts): from a file or stdin, from caption cues, or one part by flags',
  args: [
    { name: '<namespace>', help: 'the namespace' },
    { name: '[file]', help: 'JSON Lines, a JSON array, or one JSON object, each a stream part; `-` or none reads stdin' },
  ],
  flags: {
    dryRun: DRY_RUN_FLAG,
    id: { type: 'text', value: 'id', help: 'your identifier of the stream (as given to `stream watch`; it need not be watched first)' },
    chat: { type: 'text', value: 'text', help: 'one chat message, with --sender-id and --sender-name' },
    senderId: { type: 'text', value: 'id', help: 'with --chat: your stable identifier of the sender' },
    senderName: { type: 'text', value: 'name', help: 'with --chat: the name shown in the chat' },
    transcript: { type: 'text', value: 'text', help: 'one transcript line: what was said' },
    speaker: { type: 'text', value: 'name', help: 'with --transcript: who said it' },
    frame: { type: 'text', value: 'url', help: 'one frame image, by its http(s) URL' },
    audio: { type: 'text', value: 'url', help: 'one audio segment, by its http(s) URL' },
    timestamp: { type: 'text', value: 'date-time', help: 'with a part by flags: when it happened, ISO 8601 with a time zone (default: now)' },
    captions: { type: 'text', value: 'file', help: 'WebVTT or SubRip captions: each cue becomes a transcript part' },
    start: { type: 'text', value: 'date-time', help: 'with --captions: the date-time the captions\' 00:00 stands for' },
    batchSize: batchFlags.batchSize('parts'),
    maxBatchBytes: batchFlags.maxBatchBytes(1_000_000),
    failed: batchFlags.failed('append the parts of batches that could not be sent, as sent', 'stream-parts'),
    unconfirmed: batchFlags.unconfirmed('append the parts of batches whose answer was lost (the service may hold them): not safe to resend', 'stream-parts'),
    skipInvalid: batchFlags.skipInvalid('send the valid parts; append each invalid record here as {line, error, record}'),
    checkpoint: batchFlags.checkpoint('parts', 'with a FILE or --captions: '),
    maxConsecutiveFailures: batchFlags.maxConsecutiveFailures(),
    maxRate: batchFlags.maxRate(),
    shard: batchFlags.absent('i/n', ORDERED),
    concurrency: batchFlags.absent('n', ORDERED),
    follow: { type: 'switch', help: 'read a pipe (stdin or a FIFO) until it ends, sending parts as they come' },
    flushInterval: batchFlags.flushInterval('part', 'with --follow: '),
    maxBuffer: batchFlags.maxBuffer('parts'),
  },
  details: `
Each part is a JSON object of one of four types (timestamps ISO 8601, with a time zone):
  chat_message     sender_id, sender_display_name, text, timestamp
  transcript       text, timestamp, speaker (optional)
  frame_image_url  url, timestamp
  audio_url        url, timestamp
Every part of a file is checked before the first request; an invalid one is named as
file:line: field. With --captions, each WebVTT or SubRip cue (told apart by content) becomes
a transcript part stamped --start plus the cue's start, its speaker from its <v Name> voice
tags when they name one speaker. Parts are sent in file order. Prints a summary (parts sent,
requests, failed, unconfirmed): a table on a terminal, JSON in a pipe or with --json.

Parts have no idempotency key, so no batch is sent twice. One that still fails after the
retries goes to the --failed file when the service refused it or never saw it (safe to
resend as the FILE), and to the --unconfirmed file when its answer was lost (a timeout, a cut
connection, a 5xx other than 503): the service may already hold those parts, and resending
them may store them twice. Exit codes: the table of \`csafe --help\`, as for every bulk command;
unconfirmed parts count as not sent. Once --max-consecutive-failures requests in a row could not
reach the service, sending stops: one line says so, the parts not sent are in the failed file,
exit 1. Ctrl-C (exit 130) or SIGTERM (143) sends no further batch and waits for the answer in
flight. With --checkpoint, the command printed is the same one: it sends only the parts not
acknowledged (unconfirmed ones count as done). Without, the parts not sent go to the failed
file, and the command that sends them is printed.

With --follow, parts are read one JSON object a line from a pipe (stdin or a FIFO; a regular
file is refused: pipe \`tail -f FILE\` instead) and sent as they come, in order: a batch goes as
soon as --batch-size parts wait, or once the oldest has waited --flush-interval. While a batch
is sent or retried, reading goes on into a buffer of --max-buffer parts; when it is full,
reading pauses. Each line is checked as it arrives: an invalid one is reported as stdin:LINE: …
and stops the run (exit 2) once the parts before it are sent, unless --skip-invalid FILE sets
it aside and following goes on. At the end of the input, on Ctrl-C (exit 130) or SIGTERM
(exit 143), everything buffered is sent first; a pipe that ends before its first part is
exit 2. On a terminal, one status line on stderr shows the parts sent, buffered, failed and
unconfirmed, and the last error (with --progress in a log: a plain line every 5s).`,
  examples: [
    'csafe stream parts live --id show-42 examples/parts.jsonl',
    'csafe stream parts live --id show-42 --chat "hello" --sender-id u7 --sender-name Ann',
    'cat examples/parts.jsonl | csafe stream parts live --id show-42 - --skip-invalid invalid.jsonl',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
