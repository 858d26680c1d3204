import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCsafe, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

/** A record nested `depth` levels deep (an object holding arrays), on line 2 after a blank line. */
const deepInput = (depth: number) => `\n{"id":"b","x":${'['.repeat(depth)}${']'.repeat(depth)}}\n`;

describe('records nested too deep are refused by the input readers, naming file:line, exit 2, nothing sent', () => {
  const emulator = useEmulatorProcess();
  const commands: Record<string, string[]> = {
    'data add': ['data', 'add', 'ns', '-'],
    'events send': ['events', 'send', '-'],
    'stream parts': ['stream', 'parts', 'ns', '--id', 's1', '-'],
    'stream parts --follow': ['stream', 'parts', 'ns', '--id', 's1', '--follow'],
    'classify --batch': ['classify', '--batch', '-', '--user-id', 'u1'],
    'data import': ['data', 'import', 'ns', '-'],
    'import create': ['import', 'create', '-'],
  };
  for (const depth of [5_000, 100_000]) {
    for (const [name, args] of Object.entries(commands)) {
      it(`${name}: a record ${depth} deep`, async () => {
        const before = (await emulator.requests()).length;
        // In process: the readers refuse it before anything is sent; the accepted case below runs as a real process.
        const result = await runInProcess(args, { env: emulator.env, input: deepInput(depth) });
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /stdin:2: nested deeper than 64 levels of arrays and objects/);
        assert.doesNotMatch(result.stderr, /Maximum call stack|\n\s+at /);
        if (!name.endsWith('--follow')) assert.equal((await emulator.requests()).length, before, 'nothing sent');
      });
    }
  }
});

describe('a record nested exactly as deep as the limit allows is accepted end to end, envelope and all', () => {
  const emulator = useEmulatorProcess();
  for (const [name, args] of Object.entries({ 'data add': ['data', 'add', 'ns', '-'], 'data import': ['data', 'import', 'ns', '-', '--wait'] })) {
    it(`${name}: a data object 64 levels deep`, async () => {
      // The object itself is one level; its field holds the other 63.
      const result = await runCsafe([...args, '--json'], { env: emulator.env, input: deepInput(63) });
      assert.equal(result.code, 0, result.stderr);
    });
  }
});
