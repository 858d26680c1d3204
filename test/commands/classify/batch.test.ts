import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { classifyBatch } from '../../../src/commands/classify/batch.js';
import { classifyOptionsSchema } from '../../../src/commands/classify/options.js';
import { ExitCode } from '../../../src/core/errors.js';
import { parseOptions } from '../../../src/core/options.js';
import { commandTest, exitCodeOf, jsonBody } from '../../helpers/context.js';

const classifyOptions = (flags: Record<string, unknown> = {}) => parseOptions(classifyOptionsSchema, flags);
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

test('classify --batch writes a line it cannot send to --failed with its reason, sends the rest, and exits partial', async (t) => {
  const run = await commandTest(t);
  const path = join(run.dir, 'lines.jsonl');
  const failed = join(run.dir, 'failed.jsonl');
  writeFileSync(path, '{"text":"fine"}\nnot json\n');
  run.expect({ method: 'POST', path: '/v1/content', body: jsonBody({ content: [{ type: 'text', text: 'fine' }], user_id: 'user_1' }) });

  assert.equal(await exitCodeOf(classifyBatch(run.ctx, path, classifyOptions({ failed }), 'user_1')), ExitCode.partial);

  const [written, ...more] = ndjson(readFileSync(failed, 'utf8'));
  assert.deepEqual(more, []);
  assert.equal(written!.line, 2);
  assert.equal(written!.input, 'not json');
  assert.match(run.stderr(), new RegExp(`^${path}:2: .*\nclassified 1 lines; 1 failed, written to ${failed}\n$`));
});
