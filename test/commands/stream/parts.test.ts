import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { streamPartsRun } from '../../../src/commands/stream/parts/parts.js';
import { partsOptionsSchema } from '../../../src/commands/stream/parts/options.js';
import { streamParts } from '../../../src/commands/stream/parts/parts-command.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { parseOptions } from '../../../src/core/cli/options.js';
import { closeServer, listenOnLoopback } from '../../helpers/server.js';
import { commandTest, exitCodeOf, jsonBody, type CommandTest } from '../../helpers/context.js';

const PARTS = [
  { type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text: 'hello', timestamp: '2026-11-21T10:00:00Z' },
  { type: 'transcript', text: 'welcome back', speaker: 'host', timestamp: '2026-11-21T10:00:01Z' },
  { type: 'frame_image_url', url: 'https://cdn.example.com/f/0001.jpg', timestamp: '2026-11-21T10:00:02Z' },
  { type: 'audio_url', url: 'https://cdn.example.com/a/0001.aac', timestamp: '2026-11-21T10:00:03Z' },
  { type: 'transcript', text: 'bye', timestamp: '2026-11-21T10:00:04.500+01:00' },
];
const PATH = '/v1/streams/live/parts';

/** The options `stream parts` parses from its flags (strings, as commander hands them over); a failed file in the test's directory. */
const partsOptions = (run: CommandTest, flags: Record<string, unknown> = {}) =>
  parseOptions(partsOptionsSchema(streamParts.flags), { id: 'show-42', failed: join(run.dir, 'failed.jsonl'), ...flags });

function inputFile(run: CommandTest, lines: readonly string[], name = 'parts.jsonl'): string {
  const path = join(run.dir, name);
  writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
  return path;
}

const jsonLines = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line) as unknown);

test('stream parts sends a file\'s parts in file order, in batches of --batch-size, as {id, data}', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  const path = inputFile(run, PARTS.map((part) => JSON.stringify(part)));
  run.expect(
    { method: 'POST', path: PATH, body: jsonBody({ id: 'show-42', data: PARTS.slice(0, 2) }) },
    { method: 'POST', path: PATH, body: jsonBody({ id: 'show-42', data: PARTS.slice(2, 4) }) },
    { method: 'POST', path: PATH, body: jsonBody({ id: 'show-42', data: PARTS.slice(4) }) },
  );

  assert.equal(await exitCodeOf(streamPartsRun(run.ctx, 'live', path, partsOptions(run, { batchSize: '2' }), streamParts.flags)), ExitCode.ok);

  const summary = JSON.parse(run.stdout()) as Record<string, unknown>;
  assert.match(String(summary.last_request_id), /^req_/);
  // The counts every bulk command's summary has, under the same names; the fixed clock did not move.
  assert.deepEqual({ ...summary, last_request_id: undefined }, {
    read: 5, valid: 5, invalid: 0, sent: 5, failed: 0, unconfirmed: 0, skipped_checkpoint: 0, other_shards: 0, requests: 3, retries: 0, duration_ms: 0,
    namespace: 'live', id: 'show-42', last_request_id: undefined, failed_file: null, unconfirmed_file: null, invalid_file: null,
  });
  assert.equal(run.stderr(), '');
});

test('stream parts sends the part the flags make, stamped with the clock\'s now', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  const now = new Date(run.clock.now()).toISOString();
  run.expect({ method: 'POST', path: PATH, body: jsonBody({ id: 'show-42', data: [{ type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text: 'hello', timestamp: now }] }) });

  const options = partsOptions(run, { chat: 'hello', senderId: 'u7', senderName: 'Ann' });
  assert.equal(await exitCodeOf(streamPartsRun(run.ctx, 'live', undefined, options, streamParts.flags)), ExitCode.ok);
  assert.equal((JSON.parse(run.stdout()) as { sent: number }).sent, 1);
});

test('stream parts refuses an invalid file: every bad record as file:line: field: expected …, and sends nothing', async (t) => {
  const run = await commandTest(t);
  const path = inputFile(run, [
    JSON.stringify(PARTS[0]),
    '{"type":"frame_image_url","url":"ftp://x/1.jpg","timestamp":"2026-11-21T10:00:00Z"}',
    '{"type":"transcript","text":"hi","timestamp":"yesterday"}',
    '{"type":"poll","timestamp":"2026-11-21T10:00:00Z"}',
    '{"type":"chat_message","text":"hi","timestamp":"2026-11-21T10:00:00Z","sender_display_name":"Ann"}',
    '[1]',
    '{"type":"audio_url", oops}',
  ]);

  assert.equal(await exitCodeOf(streamPartsRun(run.ctx, 'live', path, partsOptions(run), streamParts.flags)), ExitCode.usage);

  assert.equal(run.stdout(), '');
  const lines = run.stderr().trim().split('\n');
  assert.deepEqual(lines.map((line) => /^(.+?:\d+): /.exec(line)?.[1]), [...[2, 3, 4, 5, 6, 7].map((n) => `${path}:${n}`), undefined]);
  assert.equal(lines[0], `${path}:2: url: expected an absolute http or https URL`);
  assert.match(lines[1]!, /:3: timestamp: expected an ISO 8601 date-time with a time zone/);
  assert.match(lines[2]!, /:4: type: unknown part type "poll": expected one of audio_url, frame_image_url, chat_message, transcript$/);
  assert.match(lines[3]!, /:5: sender_id: is required: /);
  assert.match(lines[4]!, /:6: expected a JSON object \(one stream part\)$/);
  assert.equal(lines.at(-1), 'nothing was sent: fix the 6 invalid parts, or pass --skip-invalid FILE to send the rest');
});

test('stream parts --skip-invalid sends the valid parts, writes each invalid record there, and exits partial', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  const path = inputFile(run, [JSON.stringify(PARTS[0]), '{"type":"audio_url"}', JSON.stringify(PARTS[1])]);
  const skipped = join(run.dir, 'invalid.jsonl');
  run.expect({ method: 'POST', path: PATH, body: jsonBody({ id: 'show-42', data: PARTS.slice(0, 2) }) });

  assert.equal(await exitCodeOf(streamPartsRun(run.ctx, 'live', path, partsOptions(run, { skipInvalid: skipped }), streamParts.flags)), ExitCode.partial);

  const [written, ...more] = jsonLines(readFileSync(skipped, 'utf8')) as Array<{ line: number; error: string; record: string }>;
  assert.deepEqual(more, []);
  assert.equal(written!.line, 2);
  assert.equal(written!.record, '{"type":"audio_url"}');
  assert.match(written!.error, /^timestamp: is required: .*; url: is required: /);
  const summary = JSON.parse(run.stdout()) as { sent: number; invalid: number; invalid_file: string };
  assert.deepEqual([summary.sent, summary.invalid, summary.invalid_file], [2, 1, skipped]);
});

test('stream parts writes the parts of a batch the service kept refusing to --failed, exactly as sent, and exits 1 when none was sent', async (t) => {
  const run = await commandTest(t, { emulator: { faults: { rate: 1, kinds: ['503'], seed: 1, delayMs: 0 } } });
  const path = inputFile(run, PARTS.slice(0, 3).map((part) => JSON.stringify(part, null, 0)));
  const failed = join(run.dir, 'failed.jsonl');
  // The first attempt and the two retries of each batch (503 is "not processed": retried though parts may not be replayed).
  run.expect({ method: 'POST', path: PATH, times: 6 });

  assert.equal(await exitCodeOf(streamPartsRun(run.ctx, 'live', path, partsOptions(run, { failed, batchSize: '2' }), streamParts.flags)), ExitCode.failure);

  assert.deepEqual(jsonLines(readFileSync(failed, 'utf8')), PARTS.slice(0, 3));
  assert.match(run.stderr(), new RegExp(`^${path}:1-2: a batch of 2 parts failed: .*503.*\n${path}:3: a batch of 1 part failed: `));
  assert.match(run.stderr(), new RegExp(`3 parts of failed batches written to ${failed}: resend them with \`csafe stream parts live --id show-42 ${failed}\`\n$`));
});

test('stream parts writes a batch answered 408 or 409 to --unconfirmed, sent once: the service may have applied it, so it is neither retried nor called safe to resend', async (t) => {
  for (const status of [408, 409]) {
    let posts = 0;
    const service = createServer((request, response) => {
      posts++;
      request.resume().on('end', () => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'conflict', message: `answered ${status}` } })));
    });
    const baseUrl = await listenOnLoopback(service);
    t.after(() => closeServer(service));
    const run = await commandTest(t, { env: { CSAFE_BASE_URL: baseUrl } });
    const path = inputFile(run, PARTS.slice(0, 2).map((part) => JSON.stringify(part)));
    const [failed, unconfirmed] = [join(run.dir, 'failed.jsonl'), join(run.dir, 'unconfirmed.jsonl')];

    assert.equal(await exitCodeOf(streamPartsRun(run.ctx, 'live', path, partsOptions(run, { failed, unconfirmed, batchSize: '2' }), streamParts.flags)), ExitCode.failure, String(status));

    assert.equal(posts, 1, `${status}: one attempt`);
    assert.deepEqual(jsonLines(readFileSync(unconfirmed, 'utf8')), PARTS.slice(0, 2), String(status));
    assert.equal(existsSync(failed), false, `${status}: nothing in the failed file`);
  }
});

test('stream parts: the ways of giving parts exclude each other, and a part needs all it is made of', async (t) => {
  const run = await commandTest(t);
  const path = inputFile(run, [JSON.stringify(PARTS[0])]);
  const refused = (file: string | undefined, flags: Record<string, unknown>, message: RegExp) =>
    assert.rejects(streamPartsRun(run.ctx, 'live', file, partsOptions(run, flags), streamParts.flags), (error: unknown) => error instanceof UsageError && message.test(error.message));

  await refused(path, { chat: 'hi', senderId: 'u', senderName: 'A' }, /^--chat, --sender-id and --sender-name belong to a part by flags; they cannot be given with a FILE$/);
  await refused(path, { captions: 'talk.vtt', start: '2026-11-21T10:00:00Z' }, new RegExp(`^${path} and --captions conflict`));
  await refused(undefined, { captions: 'talk.vtt', transcript: 'hi' }, /^--transcript belongs to a part by flags; it cannot be given with --captions$/);
  await refused(path, { start: '2026-11-21T10:00:00Z' }, /^--start goes with --captions FILE$/);
  await refused(undefined, { chat: 'hi', frame: 'https://x/1.jpg' }, /^--chat and --frame conflict/);
  await refused(undefined, { chat: 'hi' }, /^--chat needs --sender-id ID and --sender-name NAME$/);
  assert.throws(() => partsOptions(run, { id: undefined }), (error: unknown) => error instanceof UsageError && /^--id: is required/.test(error.message));
  assert.throws(() => partsOptions(run, { batchSize: '0' }), /--batch-size: expected a whole number ≥ 1/);
  assert.equal(existsSync(join(run.dir, 'failed.jsonl')), false);
});

test('stream parts with no FILE on a terminal asks for one rather than waiting on the keyboard', async (t) => {
  const run = await commandTest(t, { stdin: { text: '', tty: true } });
  await assert.rejects(streamPartsRun(run.ctx, 'live', undefined, partsOptions(run), streamParts.flags), (error: unknown) => error instanceof UsageError && /^no parts: give a FILE \(`-` reads stdin\), --captions FILE, or one part by flags/.test(error.message));
});

test('stream parts reads stdin when no FILE is given and stdin is not a terminal', async (t) => {
  const run = await commandTest(t, { stdin: { text: JSON.stringify(PARTS.slice(0, 2)) } });
  run.expect({ method: 'POST', path: PATH, body: jsonBody({ id: 'show-42', data: PARTS.slice(0, 2) }) });
  assert.equal(await exitCodeOf(streamPartsRun(run.ctx, 'live', undefined, partsOptions(run), streamParts.flags)), ExitCode.ok);
});
