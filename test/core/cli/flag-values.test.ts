import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { UsageError } from '../../../src/core/errors.js';
import { checkFlagValues } from '../../../src/core/cli/flag-values.js';
import { runInProcess } from '../../helpers/in-process.js';

/** data add, with a global flag that takes a value and one that does not. */
function dataAdd(): Command {
  const root = new Command('csafe').option('-o, --output <format>').option('--json');
  return root.command('data').command('add').option('--failed <file>').option('--wait').argument('<namespace>').argument('[file]');
}

const refused = (message: string, hint: string) => (error: unknown) => error instanceof UsageError && error.message === message && error.hint === hint;

describe('checkFlagValues', () => {
  it('refuses a flag whose value was left out, so the next flag became its value (--failed --wait never waited)', () => {
    assert.throws(
      () => checkFlagValues(['data', 'add', 'listings', 'f.jsonl', '--failed', '--wait'], dataAdd()),
      refused('--failed needs a value, and --wait came next: give --failed its value first', 'a value that is itself a flag\'s name goes joined to its flag: --failed=--wait'),
    );
    assert.throws(
      () => checkFlagValues(['-o', '--json', 'data', 'add', 'listings'], dataAdd()),
      refused('-o needs a value, and --json came next: give -o its value first', 'a value that is itself a flag\'s name goes joined to its flag: --output=--json'),
    );
  });

  it('lets through a value joined to its flag, a value that is no flag of the command, and anything after --', () => {
    assert.doesNotThrow(() => checkFlagValues(['data', 'add', 'listings', '--failed=--wait'], dataAdd()));
    assert.doesNotThrow(() => checkFlagValues(['data', 'add', 'listings', '--failed', '-failed.jsonl', '--wait'], dataAdd()));
    assert.doesNotThrow(() => checkFlagValues(['data', 'add', 'listings', '--', '--failed', '--wait'], dataAdd()));
  });

  it('csafe data add listings FILE --failed --wait is a usage error (exit 2) before anything is sent', async () => {
    const { code, stdout, stderr } = await runInProcess(['data', 'add', 'listings', 'examples/listings.jsonl', '--failed', '--wait']);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /^error: --failed needs a value, and --wait came next: give --failed its value first\n/);
  });
});
