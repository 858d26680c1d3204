import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventsExampleRun } from '../../../src/commands/events/example.js';
import { ExitCode, UsageError } from '../../../src/core/errors.js';
import { eventProblems } from '../../../src/schemas/events.js';
import { commandTest, exitCodeOf, type TestContextOptions } from '../../helpers/context.js';

/** The spec's seven variants, in its order (written out: a type dropped from the list must fail here). */
const SPEC_TYPES = ['user_contact', 'content_uploaded', 'product_changed', 'create_account', 'update_account', 'user_report', 'moderation_decision'];

// No test declares a request: examples are printed without the service, and strict mode fails on any request.

/** An example is only useful if the service would take it: checked with the rules `events send` uses. */
const assertValidEvent = (event: unknown) => assert.deepEqual(eventProblems(event, { allowUnknownTypes: false }), []);

for (const [what, options] of [['in a pipe', {}], ['with --json', { flags: { json: true } }], ['on a terminal', { tty: true }]] as Array<[string, TestContextOptions]>) {
  test(`events example with no type prints one valid event of each of the seven types, as JSON Lines in spec order, ${what}`, async (t) => {
    const run = await commandTest(t, options);

    assert.equal(await exitCodeOf(eventsExampleRun(run.ctx, undefined)), ExitCode.ok);

    const lines = run.stdout().split('\n');
    assert.equal(lines.pop(), '', 'the output ends with a newline');
    const events = lines.map((line) => JSON.parse(line) as { type: string });
    assert.deepEqual(events.map((event) => event.type), SPEC_TYPES);
    events.forEach(assertValidEvent);
    assert.equal(run.stderr(), '');
  });
}

for (const [what, options] of [['in a pipe', {}], ['on a terminal (an event has no table form)', { tty: true }], ['with -o table', { flags: { output: 'table' } }]] as Array<[string, TestContextOptions]>) {
  test(`events example TYPE prints that event as indented JSON ${what}`, async (t) => {
    const run = await commandTest(t, options);

    assert.equal(await exitCodeOf(eventsExampleRun(run.ctx, 'product_changed')), ExitCode.ok);

    const event = JSON.parse(run.stdout()) as { type: string };
    assert.equal(run.stdout(), JSON.stringify(event, null, 2) + '\n');
    assert.equal(event.type, 'product_changed');
    assertValidEvent(event);
  });
}

test('events example TYPE -o ndjson prints the event on one line', async (t) => {
  const run = await commandTest(t, { flags: { output: 'ndjson' } });

  assert.equal(await exitCodeOf(eventsExampleRun(run.ctx, 'user_report')), ExitCode.ok);

  const event = JSON.parse(run.stdout()) as { type: string };
  assert.equal(run.stdout(), JSON.stringify(event) + '\n');
  assert.equal(event.type, 'user_report');
  assertValidEvent(event);
});

test('events example of an unknown type is a usage error listing the types, and prints nothing', async (t) => {
  const run = await commandTest(t);

  await assert.rejects(eventsExampleRun(run.ctx, 'product_change'), {
    constructor: UsageError,
    message: `unknown event type "product_change": expected one of ${SPEC_TYPES.join(', ')}`,
  });
  assert.equal(run.stdout(), '');
});
