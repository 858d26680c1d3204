import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { settingsPutRun } from '../../../src/commands/settings/put.js';
import { ExitCode, InputError, UsageError } from '../../../src/core/errors.js';
import { commandTest, exitCodeOf, jsonBody } from '../../helpers/context.js';

const SCHEMA = { photo: { content_type: 'image_url', display_hint: { type: 'primary_image_url' } }, title: { display_hint: { type: 'title' } } };

test('settings put --field sends the schema the fields describe and prints the answer', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  run.expect({ method: 'PUT', path: '/v1/data/listings/settings', body: jsonBody({ schema: SCHEMA }) });

  assert.equal(await exitCodeOf(settingsPutRun(run.ctx, 'listings', undefined, ['photo:image_url:primary_image_url', 'title::title'])), ExitCode.ok);

  assert.equal((JSON.parse(run.stdout()) as { namespace: string }).namespace, 'listings');
});

test('settings put FILE sends the schema in the file', async (t) => {
  const run = await commandTest(t, { flags: { json: true } });
  const path = join(run.dir, 'schema.json');
  writeFileSync(path, JSON.stringify({ schema: SCHEMA }));
  run.expect({ method: 'PUT', path: '/v1/data/listings/settings', body: jsonBody({ schema: SCHEMA }) });

  assert.equal(await exitCodeOf(settingsPutRun(run.ctx, 'listings', path, [])), ExitCode.ok);
});

test('settings put sends nothing for a schema with a problem, naming it, nor for a FILE and --field together', async (t) => {
  const run = await commandTest(t);
  const path = join(run.dir, 'schema.json');
  writeFileSync(path, '{\n  "photo": {"content_type": "video"}\n}\n');

  await assert.rejects(settingsPutRun(run.ctx, 'listings', path, []), { constructor: InputError, message: 'the schema has 1 problem; nothing was sent' });
  assert.match(run.stderr(), new RegExp(`^${path}:2: .*photo.*\n$`));
  await assert.rejects(settingsPutRun(run.ctx, 'listings', path, ['title::title']), { constructor: UsageError, message: 'give a schema FILE or --field, not both' });
});
