import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decisionCreateRun, type DecisionCreateOptions } from '../../../src/commands/decision/create.js';
import { AuthenticationError, ExitCode, InputError, UsageError } from '../../../src/core/errors.js';
import { call } from '../../emulator/support.js';
import { commandTest, exitCodeOf, jsonBody } from '../../helpers/context.js';
import { CONTENT_LIMITS } from '../../../src/schemas/content.js';

const options = (given: Partial<DecisionCreateOptions>): DecisionCreateOptions => ({ metadata: [], wait: false, timeoutMs: Infinity, ...given });
const DECISION = /^\/v1\/decisions\/dec_[0-9a-f]{24}$/;

test('decision create sends type, content and metadata, and prints the id, type and metadata', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  run.expect({ method: 'POST', path: '/v1/decisions', body: jsonBody({ type: 'text', content: { text: 'see you' }, metadata: { source: 'app', n: 1 } }) });
  writeFileSync(join(run.dir, 'meta.json'), '{"n": 1}');

  const code = await exitCodeOf(decisionCreateRun(run.ctx, options({ type: 'text', content: '{"text":"see you"}', metadata: ['source=app', `@${join(run.dir, 'meta.json')}`] })));

  assert.equal(code, ExitCode.ok, run.stderr());
  const created = JSON.parse(run.stdout());
  assert.match(created.decision_id, /^dec_/);
  assert.deepEqual({ type: created.type, metadata: created.metadata }, { type: 'text', metadata: { source: 'app', n: 1 } });
});

test('decision create --content @- reads the content from stdin; the table names each field', async (t) => {
  const run = await commandTest(t, { flags: { output: 'table' }, stdin: { text: '{"title": "bike"}\n' } });
  run.expect({ method: 'POST', path: '/v1/decisions', body: jsonBody({ type: 'listing', content: { title: 'bike' } }) });

  assert.equal(await exitCodeOf(decisionCreateRun(run.ctx, options({ type: 'listing', content: '@-' }))), ExitCode.ok);

  const rows = run.stdout().trim().split('\n').map((line) => line.split(/: +/));
  assert.deepEqual(rows.map(([field]) => field), ['decision_id', 'type', 'metadata']);
  assert.deepEqual(rows.slice(1), [['type', 'listing'], ['metadata', '{}']]);
});

test('decision create --content @- --metadata @-: refused before sending, as stdin can be read once', async (t) => {
  const run = await commandTest(t, { stdin: { text: '{"title": "bike"}\n' } });
  const error = await decisionCreateRun(run.ctx, options({ type: 'listing', content: '@-', metadata: ['@-'] })).then(() => undefined, (failure: unknown) => failure);
  assert.ok(error instanceof UsageError, String(error));
  assert.equal(error.message, '--metadata: @- reads stdin, which an earlier @- has read already; give this one from a file');
});

test('decision create --wait polls on the fixed clock until SUCCESS, then prints the decision as decision get does', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, emulator: { processingDelayMs: 3_000 } });
  // Pending at 0 s and 1 s, settled at 3 s.
  run.expect({ method: 'POST', path: '/v1/decisions' }, { method: 'GET', path: DECISION, times: 3 });

  const code = await exitCodeOf(decisionCreateRun(run.ctx, options({ type: 'text', content: '{"text":"I will kill you"}', wait: true })));

  assert.equal(code, ExitCode.ok, run.stderr());
  const decision = JSON.parse(run.stdout());
  assert.deepEqual([decision.decision_status, decision.result], ['SUCCESS', 'match']);
  assert.ok(!('type' in decision), 'as the service returned it, nothing added');
  assert.ok(decision.labels.some((label: { name: string; applied: boolean }) => label.name === 'violence' && label.applied));
});

test('decision create --wait refused part-way (an access token expired): the decision it made is named, with the command that checks on it', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, emulator: { processingDelayMs: 60_000 } });
  run.expect({ method: 'POST', path: '/v1/decisions' }, { method: 'GET', path: DECISION, times: 2 });
  const sleep = run.ctx.sleep.bind(run.ctx);
  // After the first poll: the key is refused from then on.
  run.ctx.sleep = async (ms, signal) => {
    await call(run.emulator, 'POST', '/_emulator/quirks', { json: { refused_requests: 1 } });
    return sleep(ms, signal);
  };

  const error = await decisionCreateRun(run.ctx, options({ type: 'text', content: '{"text":"see you"}', wait: true })).then(() => undefined, (failure: unknown) => failure);

  assert.ok(error instanceof AuthenticationError, String(error));
  const id = /decision (dec_\w+) is still pending/.exec(run.stderr())?.[1];
  assert.ok(id !== undefined, run.stderr());
  assert.equal(run.stderr(), `decision ${id} is still pending; check on it with:\n  csafe decision get ${id} --wait\n`);
});

test('decision create --wait on content the service cannot process ends ERROR: exit 1, with why', async (t) => {
  const run = await commandTest(t, { flags: { json: true }, emulator: { processingDelayMs: 0 } });
  run.expect({ method: 'POST', path: '/v1/decisions' }, { method: 'GET', path: DECISION });

  const code = await exitCodeOf(decisionCreateRun(run.ctx, options({ type: 'listing', content: '{"price": 12}', wait: true })));

  assert.equal(code, ExitCode.failure);
  const { decision_id: id, decision_status: status } = JSON.parse(run.stdout());
  assert.equal(status, 'ERROR');
  assert.equal(run.stderr(), `decision ${id} ended ERROR: the content holds no text to review\n`);
});

const refused = async (t: Parameters<typeof commandTest>[0], given: Partial<DecisionCreateOptions>, errorClass: typeof UsageError | typeof InputError, message: string, files: Record<string, string> = {}) => {
  const run = await commandTest(t);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(run.dir, name), text);
  const withPaths = JSON.parse(JSON.stringify(given).replaceAll('@DIR/', `@${run.dir}/`)) as Partial<DecisionCreateOptions>;
  const error = await decisionCreateRun(run.ctx, options(withPaths)).then(() => undefined, (failure: unknown) => failure);
  assert.ok(error instanceof errorClass, String(error));
  assert.equal(error.message.replaceAll(`${run.dir}/`, ''), message);
  assert.equal(await exitCodeOf(Promise.reject(error)), ExitCode.usage);
  // Strict mode: nothing was expected, so nothing may have been sent.
};

test('decision create refuses invalid --content before sending anything (exit 2, the flag named)', async (t) => {
  await t.test('inline JSON that breaks', (t) => refused(t, { type: 'text', content: '{"text": }' }, InputError, `--content: invalid JSON at column 10: Unexpected token '}'`));
  await t.test('an array', (t) => refused(t, { type: 'text', content: '["x"]' }, InputError, '--content: expected a JSON object (its fields depend on --type), got an array'));
  await t.test('a file whose JSON breaks on line 3', (t) =>
    refused(t, { type: 'listing', content: '@DIR/listing.json' }, InputError, `--content: listing.json:3: invalid JSON at column 3: Expected double-quoted property name`, {
      'listing.json': '{\n  "title": "bike",\n  }\n',
    }));
  await t.test('a file that is not there', (t) => refused(t, { type: 'listing', content: '@DIR/missing.json' }, InputError, '--content: missing.json: no such file'));
  await t.test('no --content', (t) => refused(t, { type: 'text' }, UsageError, '--content: is required: expected a JSON object (its fields depend on type)'));
});

test('decision create refuses a missing or empty --type and bad --metadata before sending anything', async (t) => {
  await t.test('--content and --metadata each within the request size, together over it', (t) => {
    const text = 'a'.repeat(CONTENT_LIMITS.requestBytes - 100);
    return refused(t, { type: 'text', content: '@DIR/big.json', metadata: [`note=${'b'.repeat(200)}`] }, InputError,
      `--content and --metadata: the request would be ${CONTENT_LIMITS.requestBytes + 160} bytes, over ${CONTENT_LIMITS.requestBytes} bytes, the most one request can carry`, { 'big.json': JSON.stringify({ text }) });
  });
  await t.test('an @ without a file name', (t) => refused(t, { type: 'text', content: '@' }, UsageError, '--content: "@" needs a file name after it: @FILE, or @- for stdin'));
  await t.test('no --type', (t) => refused(t, { content: '{}' }, UsageError, '--type: is required: the kind of content to review, e.g. text'));
  await t.test('an empty --type', (t) => refused(t, { type: '', content: '{}' }, UsageError, '--type: expected a non-empty string (the kind of content to review, e.g. text)'));
  await t.test('--metadata without =', (t) => refused(t, { type: 'text', content: '{}', metadata: ['source'] }, UsageError, '--metadata: expected key=value or @file.json, got "source"'));
  await t.test('--metadata @file holding an array', (t) =>
    refused(t, { type: 'text', content: '{}', metadata: ['@DIR/meta.json'] }, InputError, '--metadata: meta.json: expected a JSON object of metadata, got an array', { 'meta.json': '[1]' }));
});
