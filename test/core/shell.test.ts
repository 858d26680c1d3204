import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { commandIndex, csafeCommandLine, globalFlagsOf, shellWord, withFlag } from '../../src/core/shell.js';

describe('shellWord', () => {
  it('leaves a plain word as it is and quotes anything a shell would read otherwise', () => {
    assert.equal(shellWord('dec_1a-B.c'), 'dec_1a-B.c');
    assert.equal(shellWord('data/items.jsonl'), 'data/items.jsonl');
    assert.equal(shellWord('my listings'), `'my listings'`);
    assert.equal(shellWord(`it's`), `'it'\\''s'`);
    assert.equal(shellWord('$(rm -rf ~)'), `'$(rm -rf ~)'`);
    assert.equal(shellWord('~/x'), `'~/x'`);
  });
});

describe('csafeCommandLine', () => {
  it('quotes each argument and leaves out an API key given by flag', () => {
    assert.equal(
      csafeCommandLine(['--api-key', 'sk_live_1', '--api-key=sk_live_2', 'events', 'send', 'my events.jsonl', '--checkpoint', 'state.json']),
      `csafe events send 'my events.jsonl' --checkpoint state.json`,
    );
  });
});

describe('withFlag', () => {
  it('replaces every earlier value of the flag, in either spelling, or adds it', () => {
    assert.deepEqual(withFlag(['classify', '--from-line', '3', '--from-line=4', '--batch', 'x'], '--from-line', '9'), ['classify', '--batch', 'x', '--from-line', '9']);
    assert.deepEqual(withFlag(['classify'], '--failed', 'f.jsonl'), ['classify', '--failed', 'f.jsonl']);
  });
});

describe('globalFlagsOf', () => {
  it('is the global flags and their values before the command, whatever the command', () => {
    assert.deepEqual(globalFlagsOf(['--profile', 'stream', '-o', 'json', '--quiet', 'stream', 'parts', 'live', '--id', 'x']), ['--profile', 'stream', '-o', 'json', '--quiet']);
    assert.deepEqual(globalFlagsOf(['stream', 'parts', '--profile', 'p']), []);
    assert.equal(commandIndex(['--base-url', 'http://x', '--insecure']), 3);
  });
});
