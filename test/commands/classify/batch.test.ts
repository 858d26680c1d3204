import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { classifyBatch } from '../../../src/commands/classify/batch.js';
import { classify } from '../../../src/commands/classify/index.js';
import { classifyOptionsSchema } from '../../../src/commands/classify/options.js';
import { ExitCode } from '../../../src/core/errors.js';
import { parseOptions } from '../../../src/core/cli/options.js';
import { commandTest, exitCodeOf, jsonBody, type CommandTest } from '../../helpers/context.js';

const classifyOptions = (flags: Record<string, unknown> = {}) => parseOptions(classifyOptionsSchema(classify.flags), flags);
/** A POST to the emulator's control routes (quirks, faults). */
async function control(run: CommandTest, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${run.emulator.baseUrl}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${run.emulator.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200, await response.text());
}
const ndjson = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

test('classify --batch sends one request per line, the shorthand expanded, and prints results in input order', async (t) => {
  const run = await commandTest(t);
  const path = join(run.dir, 'lines.jsonl');
  writeFileSync(path, '{"text":"first"}\n{"text":"second","user_id":"user_2"}\n');
  run.expect(
    { method: 'POST', path: '/v1/content', body: jsonBody({ content: [{ type: 'text', text: 'first' }], user_id: 'user_1' }) },
    { method: 'POST', path: '/v1/content', body: jsonBody({ content: [{ type: 'text', text: 'second' }], user_id: 'user_2' }) },
  );

  assert.equal(await exitCodeOf(classifyBatch(run.ctx, path, classifyOptions({ concurrency: '2' }), 'user_1')), ExitCode.ok);

  assert.deepEqual(ndjson(run.stdout()).map((line) => line.line), [1, 2]);
  assert.equal(run.stderr(), 'classified 2 lines\n');
});

test('classify --batch writes a line the service refuses to --failed with its reason, sends the rest, and exits partial', async (t) => {
  const run = await commandTest(t, { flags: { maxRetries: '0' } });
  const path = join(run.dir, 'lines.jsonl');
  const failed = join(run.dir, 'failed.jsonl');
  const refused = { text: 'refused', content_id: 'c1' };
  writeFileSync(path, `${JSON.stringify(refused)}\n{"text":"fine"}\n`);
  await control(run, '/_emulator/quirks', { failing_requests: 1 });
  await run.forgetRequests();
  run.expect(
    // Refused before its body was read: logged without it.
    { method: 'POST', path: '/v1/content' },
    { method: 'POST', path: '/v1/content', body: jsonBody({ content: [{ type: 'text', text: 'fine' }], user_id: 'user_1' }) },
  );

  assert.equal(await exitCodeOf(classifyBatch(run.ctx, path, classifyOptions({ failed, concurrency: '1' }), 'user_1')), ExitCode.partial);

  // The line as read, so the failed file is an input to classify again.
  assert.deepEqual(ndjson(readFileSync(failed, 'utf8')), [refused]);
  assert.match(run.stderr(), new RegExp(`^${path}:1: POST /v1/content: 503 .*\nclassified 1 line; 1 failed, written to ${failed}\nhint: resend them with \`csafe classify --batch ${failed}\`\n$`));
});

test('classify --batch checks image lines as the service does: base64 that is no whole image is named with its line, and nothing is sent (exit 2)', async (t) => {
  const run = await commandTest(t);
  const path = join(run.dir, 'lines.jsonl');
  const image = (data: string) => JSON.stringify({ content: [{ type: 'image', source: { type: 'base64', data } }] });
  // "hello", then the 8 bytes that open a PNG and nothing after them.
  writeFileSync(path, `{"text":"fine"}\n${image('aGVsbG8=')}\n${image('iVBORw0KGgo=')}\n`);

  assert.equal(await exitCodeOf(classifyBatch(run.ctx, path, classifyOptions(), 'user_1')), ExitCode.usage);

  assert.equal(run.stdout(), '');
  assert.equal(
    run.stderr(),
    `${path}:2: content[0].source.data: base64 data does not decode to PNG, JPEG, GIF or WebP image bytes\n` +
      `${path}:3: content[0].source.data: base64 data is a PNG image cut short (its chunks end before IEND): the file is damaged or was not copied whole\n` +
      'nothing was sent: fix the 2 invalid lines, or pass --skip-invalid FILE to send the rest\n',
  );
});

test('classify --batch checks every line first: an invalid one is named and nothing is sent (exit 2)', async (t) => {
  const run = await commandTest(t);
  const path = join(run.dir, 'lines.jsonl');
  writeFileSync(path, '{"text":"fine"}\nnot json\n');

  assert.equal(await exitCodeOf(classifyBatch(run.ctx, path, classifyOptions(), 'user_1')), ExitCode.usage);

  assert.equal(run.stdout(), '');
  assert.match(run.stderr(), new RegExp(`^${path}:2: .*\nnothing was sent: fix the 1 invalid line, or pass --skip-invalid FILE to send the rest\n$`));
});

test('classify --batch names a shorthand line whose text is no string, or comes with content, by its text field, not as a line without text', async (t) => {
  const run = await commandTest(t);
  const path = join(run.dir, 'lines.jsonl');
  writeFileSync(path, '{"text":5}\n{"text":null,"user_id":"u2"}\n{"text":["a"]}\n{"text":"a","content":[{"type":"text","text":"b"}]}\n');

  assert.equal(await exitCodeOf(classifyBatch(run.ctx, path, classifyOptions(), 'user_1')), ExitCode.usage);

  assert.equal(
    run.stderr(),
    `${path}:1: text: expected a string (the text to classify), got number\n` +
      `${path}:2: text: expected a string (the text to classify), got null\n` +
      `${path}:3: text: expected a string (the text to classify), got an array\n` +
      `${path}:4: text: give a "text" or a "content" field on the line, not both\n` +
      'nothing was sent: fix the 4 invalid lines, or pass --skip-invalid FILE to send the rest\n',
  );
});

test('classify --batch --skip-invalid sends the valid lines, sets the invalid one aside, and exits partial', async (t) => {
  const run = await commandTest(t);
  const path = join(run.dir, 'lines.jsonl');
  const skipped = join(run.dir, 'invalid.jsonl');
  writeFileSync(path, '{"text":"fine"}\nnot json\n');
  run.expect({ method: 'POST', path: '/v1/content', body: jsonBody({ content: [{ type: 'text', text: 'fine' }], user_id: 'user_1' }) });

  assert.equal(await exitCodeOf(classifyBatch(run.ctx, path, classifyOptions({ skipInvalid: skipped }), 'user_1')), ExitCode.partial);

  const [written, ...more] = ndjson(readFileSync(skipped, 'utf8'));
  assert.deepEqual(more, []);
  assert.deepEqual([written!.line, written!.record], [2, 'not json']);
  assert.match(String(written!.error), /invalid JSON/);
  assert.match(run.stderr(), new RegExp(`classified 1 line; 1 invalid line written to ${skipped}\n$`));
});

test('classify --concurrency allows up to 256 requests in flight (core/cli/whole-number tests the 64 of the other batch commands)', () => {
  assert.equal(classifyOptions({ concurrency: '256' }).concurrency, 256);
  assert.throws(() => classifyOptions({ concurrency: '257' }), { message: '--concurrency: expected at most 256' });
});
