import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classify } from '../../../src/commands/classify/index.js';
import { classifyOptionsSchema } from '../../../src/commands/classify/options.js';
import { classifyFiles } from '../../../src/commands/classify/single.js';
import { ExitCode, InputError, UsageError } from '../../../src/core/errors.js';
import { parseOptions } from '../../../src/core/cli/options.js';
import { commandTest, exitCodeOf, jsonBody } from '../../helpers/context.js';

const classifyOptions = (flags: Record<string, unknown> = {}) => parseOptions(classifyOptionsSchema(classify.flags), flags);

test('classify --text sends one request with the text and user id, and prints the response as JSON', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  run.expect({ method: 'POST', path: '/v1/content', body: jsonBody({ content: [{ type: 'text', text: 'have a nice day' }], user_id: 'user_1' }) });

  assert.equal(await exitCodeOf(classifyFiles(run.ctx, [], classifyOptions({ text: ['have a nice day'] }), 'user_1')), ExitCode.ok);

  const response = JSON.parse(run.stdout()) as { labels: Array<{ decision: string }> };
  assert.ok(response.labels.length > 0);
  assert.ok(response.labels.every((label) => label.decision === 'not_match'));
});

test('classify --fail-on review exits with the condition code when a label needs review', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  run.expect({ method: 'POST', path: '/v1/content' });

  const code = await exitCodeOf(classifyFiles(run.ctx, [], classifyOptions({ text: ['you are stupid'], failOn: 'review' }), 'user_1'));

  assert.equal(code, ExitCode.condition);
  assert.ok((JSON.parse(run.stdout()) as { labels: Array<{ decision: string }> }).labels.some((label) => label.decision === 'review'));
});

test('classify without a user id, or without content, is a usage error and sends nothing', async (t) => {
  const run = await commandTest(t);

  await assert.rejects(classifyFiles(run.ctx, [], classifyOptions({ text: ['hi'] }), undefined), { constructor: UsageError, message: '--user-id is required' });
  const atTerminal = await commandTest(t, { stdin: { text: '', tty: true } });
  await assert.rejects(classifyFiles(atTerminal.ctx, [], classifyOptions(), 'user_1'), { constructor: UsageError, message: 'nothing to classify: give files, `-` for stdin, --text or --batch' });
});

test('classify refuses a request the schema does not allow before sending it', async (t) => {
  const run = await commandTest(t);

  await assert.rejects(classifyFiles(run.ctx, [], classifyOptions({ text: ['hi'] }), ''), { constructor: InputError, message: /^--user-id: expected a non-empty user id$/ });
});
