import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { InputError, InterruptedError, UsageError } from '../../../src/core/errors.js';
import { jsonObjectFlag, parseMetadata } from '../../../src/core/input/json-flags.js';

const stdinWith = (text: string) => {
  const stdin = new PassThrough();
  stdin.end(text);
  return stdin;
};

describe('jsonObjectFlag', () => {
  it('takes a JSON object inline, or from stdin with @-', async () => {
    assert.deepEqual(await jsonObjectFlag('--content', '{"text":"hi"}', { stdin: stdinWith(''), maxBytes: 100 }), { text: 'hi' });
    assert.deepEqual(await jsonObjectFlag('--content', '@-', { stdin: stdinWith('{\n"a": [1]\n}\n'), maxBytes: 100 }), { a: [1] });
  });

  it('names stdin, the line and the column where JSON from @- breaks', async () => {
    await assert.rejects(jsonObjectFlag('--content', '@-', { stdin: stdinWith('{\n"a": 1\n"b": 2}'), maxBytes: 100 }), (error: unknown) =>
      error instanceof InputError && /^--content: stdin:3: invalid JSON at column 1: /.test(error.message));
  });

  it('refuses null, arrays and scalars, saying what it got', async () => {
    for (const [text, got] of [['null', 'null'], ['[]', 'an array'], ['3', 'number']]) {
      await assert.rejects(jsonObjectFlag('--content', text, { stdin: stdinWith(''), maxBytes: 100 }, 'a JSON object'), { message: `--content: expected a JSON object, got ${got}` });
    }
  });

  it('names the flag when its @FILE cannot be read', async () => {
    await assert.rejects(jsonObjectFlag('--content', '@/nonexistent/listing.json', { stdin: stdinWith(''), maxBytes: 100 }), /^InputError: --content: \/nonexistent\/listing\.json: no such file$/);
  });

  it('refuses an empty or blank value, inline, from stdin or from a file, saying what was expected', async () => {
    await assert.rejects(jsonObjectFlag('--content', '  ', { stdin: stdinWith(''), maxBytes: 100 }), (error: unknown) =>
      error instanceof InputError && error.message === '--content: is empty, expected a JSON object; nothing was sent');
    await assert.rejects(jsonObjectFlag('--metadata', '@-', { stdin: stdinWith('\n\n'), maxBytes: 100 }, 'a JSON object of metadata'), (error: unknown) =>
      error instanceof InputError && error.message === '--metadata: stdin: is empty, expected a JSON object of metadata; nothing was sent');
    await assert.rejects(jsonObjectFlag('--content', '@/dev/null', { stdin: stdinWith(''), maxBytes: 100 }), { message: '--content: /dev/null: is empty, expected a JSON object; nothing was sent' });
  });

  it('names the flag alone for inline JSON that breaks, with a hint of the form and of @FILE; a file by its line, with no hint', async () => {
    await assert.rejects(jsonObjectFlag('--content', '{"text": hi}', { stdin: stdinWith(''), maxBytes: 100 }), (error: unknown) =>
      error instanceof InputError && /^--content: invalid JSON at column 10: /.test(error.message) && error.hint === `give a JSON object such as '{"text":"hello"}', or @FILE to read it from a file`);
    await assert.rejects(jsonObjectFlag('--content', '@-', { stdin: stdinWith('{\n"a": [[[\n'), maxBytes: 100 }), (error: unknown) =>
      error instanceof InputError && /^--content: stdin:\d+: /.test(error.message) && error.hint === undefined);
  });

  it('passes Ctrl-C during the read of its file on as it is, not as a bad file', async () => {
    const stdin = new PassThrough();
    const read = jsonObjectFlag('--content', '@-', { stdin, maxBytes: 100 });
    stdin.destroy(new InterruptedError());
    await assert.rejects(read, (error: unknown) => error instanceof InterruptedError);
  });

  it('refuses a file larger than what one request can carry', async () => {
    await assert.rejects(jsonObjectFlag('--content', '@-', { stdin: stdinWith(`{"a":"${'x'.repeat(200)}"}`), maxBytes: 100 }), /^InputError: --content: stdin: larger than 100 bytes/);
  });
});

describe('parseMetadata', () => {
  it('merges key=value pairs and @file objects in order; none given is undefined', async () => {
    const input = { stdin: stdinWith('{"b": 2, "a": "from file"}'), maxBytes: 100 };
    assert.deepEqual(await parseMetadata(['a=1', '@-', 'c=x=y'], input), { a: 'from file', b: 2, c: 'x=y' });
    assert.equal(await parseMetadata([], input), undefined);
  });

  it('refuses a pair without a key or without =, naming what it got', async () => {
    const input = { stdin: stdinWith(''), maxBytes: 100 };
    for (const spec of ['=1', 'flag', '']) {
      await assert.rejects(parseMetadata(['a=1', spec], input), (error: unknown) => error instanceof UsageError && error.message === `--metadata: expected key=value or @file.json, got "${spec}"`);
    }
    assert.deepEqual(await parseMetadata(['k='], input), { k: '' });
  });

  it('names --metadata and what it expected when an @file holds no object or cannot be read', async () => {
    await assert.rejects(parseMetadata(['@-'], { stdin: stdinWith('[1]'), maxBytes: 100 }), { message: '--metadata: stdin: expected a JSON object of metadata, got an array' });
    await assert.rejects(parseMetadata(['@-'], { stdin: stdinWith('{"a": 1}'), maxBytes: 3 }), (error: unknown) => error instanceof InputError && error.message.startsWith('--metadata: stdin: larger than 3 bytes'));
  });
});
