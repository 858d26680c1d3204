import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { commandIndex, csafeCommandLine, sameServiceCommand, shellWord, withFlag, withPositional } from '../../../src/core/cli/command-line.js';

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
    assert.equal(csafeCommandLine(['--profile', 'ci', '--base-url=http://h', 'events', 'send', 'e.jsonl']), 'csafe --profile ci --base-url=http://h events send e.jsonl', 'other global flags kept with their values');
  });
});

describe('withFlag', () => {
  it('replaces every earlier value of the flag, in either spelling, or adds it', () => {
    assert.deepEqual(withFlag(['classify', '--from-line', '3', '--from-line=4', '--batch', 'x'], '--from-line', '9'), ['classify', '--batch', 'x', '--from-line', '9']);
    assert.deepEqual(withFlag(['classify'], '--failed', 'f.jsonl'), ['classify', '--failed', 'f.jsonl']);
  });
});

describe('withPositional', () => {
  const flags = { withValue: new Set(['--id', '--captions', '--failed']), dropped: new Set(['--captions', '--failed']) };

  it('replaces the positional at its place, keeps global and other flags with their values, drops the named ones', () => {
    assert.deepEqual(
      withPositional(['--base-url', 'http://h', 'stream', 'parts', 'live', '--id', 'a', '-', '--failed=x.jsonl', '--quiet'], 3, 'rest.jsonl', flags),
      ['--base-url', 'http://h', 'stream', 'parts', 'live', '--id', 'a', 'rest.jsonl', '--quiet'],
    );
  });

  it('takes a switch before a positional as a switch, not as the flag of the word after it', () => {
    assert.deepEqual(withPositional(['stream', 'parts', '--quiet', 'live', '-'], 3, 'rest.jsonl', flags), ['stream', 'parts', '--quiet', 'live', 'rest.jsonl']);
  });

  it('adds the value when the positional was not given', () => {
    assert.deepEqual(withPositional(['stream', 'parts', 'live', '--captions', 'talk.vtt', '--id', 'a'], 3, 'rest.jsonl', flags), ['stream', 'parts', 'live', '--id', 'a', 'rest.jsonl']);
  });
});

describe('commandIndex', () => {
  it('is where the command starts, after the global flags and their values', () => {
    assert.equal(commandIndex(['--profile', 'stream', '-o', 'json', '--quiet', 'stream', 'parts']), 5);
    assert.equal(commandIndex(['--base-url', 'http://x', '--insecure']), 3);
  });
});

describe('sameServiceCommand', () => {
  const argv = ['--profile', 'staging', '-ojson', 'batch', 'create', 'in.csv', '--api-key=sk_live_1', '--json', '--output', 'tsv', '--base-url=http://x', '-qv', '--wait'];
  it('keeps the global flags, wherever they stand, but a secret', () => {
    assert.equal(sameServiceCommand(argv, 'batch get b1'), 'csafe --profile staging -ojson --json --output tsv --base-url=http://x -qv batch get b1');
  });
  it('output: false leaves out the flags that choose how a result is written, in every form', () => {
    assert.equal(sameServiceCommand(argv, 'batch download b1 out.csv', { output: false }), 'csafe --profile staging --base-url=http://x -qv batch download b1 out.csv');
  });
});
