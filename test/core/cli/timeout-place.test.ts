import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { UsageError } from '../../../src/core/errors.js';
import { checkTimeoutPlace } from '../../../src/core/cli/timeout-place.js';

/** classify (a group that is its own command), data status (waits), data add and events send (do not). */
function program(): Command {
  const root = new Command('csafe');
  root.command('classify');
  const data = root.command('data');
  data.command('status').option('--timeout <duration>');
  data.command('add').option('--timeout-ms <n>');
  root.command('events').command('send');
  return root;
}

const usage = (message: string) => (error: unknown) => error instanceof UsageError && error.message === message;

describe('checkTimeoutPlace', () => {
  it('lets --timeout through after a verb that waits, and anything after --', () => {
    assert.doesNotThrow(() => checkTimeoutPlace(['data', 'status', 'ns', 'r', '--wait', '--timeout', '5m'], 0, program()));
    assert.doesNotThrow(() => checkTimeoutPlace(['--profile', 'p', 'data', 'status', 'ns', 'r', '--timeout=5m'], 2, program()));
    assert.doesNotThrow(() => checkTimeoutPlace(['events', 'send', '--', '--timeout', '5m'], 0, program()));
  });

  it('refuses --timeout before the command, naming --request-timeout with the value given', () => {
    assert.throws(() => checkTimeoutPlace(['--timeout', '30s', 'classify'], 2, program()), (error: unknown) =>
      usage('--timeout before the command is no longer the timeout of each request: use --request-timeout 30s')(error) &&
      (error as UsageError).hint === '--timeout now goes after a command that waits and limits the wait: csafe data status NAMESPACE REQUEST_ID --wait --timeout 30s');
    assert.throws(() => checkTimeoutPlace(['--timeout=2m', 'data', 'status'], 1, program()), usage('--timeout before the command is no longer the timeout of each request: use --request-timeout 2m'));
  });

  it('refuses --timeout after a verb that does not wait, naming the verb', () => {
    assert.throws(() => checkTimeoutPlace(['classify', '--text', 'x', '--timeout', '9s'], 0, program()), usage('classify does not wait, so it has no --timeout: for the timeout of each request use --request-timeout 9s'));
    assert.throws(() => checkTimeoutPlace(['events', 'send', 'f', '--timeout'], 0, program()), usage('events send does not wait, so it has no --timeout: for the timeout of each request use --request-timeout <duration>'));
    assert.throws(() => checkTimeoutPlace(['data', 'add', 'ns', '--timeout', '9s'], 0, program()), usage('data add does not wait, so it has no --timeout: for the timeout of each request use --request-timeout 9s'), 'a verb of the group other than its first, with other flags of its own');
  });

  it('leaves a command it does not know to the parser, which names it', () => {
    assert.doesNotThrow(() => checkTimeoutPlace(['nosuch', '--timeout', '9s'], 0, program()));
    assert.doesNotThrow(() => checkTimeoutPlace(['data', 'nosuch', '--timeout', '9s'], 0, program()));
  });
});
