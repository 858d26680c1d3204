import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { InputError } from '../../../src/core/errors.js';
import { detectImageType } from '../../../src/core/input/images.js';
import { decodeText, readBoundedInput } from '../../../src/core/input/whole-file.js';
import { tempDir } from '../../helpers/cli.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const inputError = (message: string) => (error: unknown) => error instanceof InputError && error.message === message;

describe('detectImageType', () => {
  it('tells each type by its magic bytes', () => {
    assert.equal(detectImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)), 'image/png');
    assert.equal(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe0)), 'image/jpeg');
    assert.equal(detectImageType(Buffer.from('GIF89a')), 'image/gif');
    assert.equal(detectImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
  });

  it('needs every byte of a signature', () => {
    assert.equal(detectImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b)), undefined);
    assert.equal(detectImageType(bytes(0xff, 0xd8, 0xfe)), undefined);
    assert.equal(detectImageType(Buffer.from('GIF7')), undefined);
    for (const webp of ['RIFF\0\0\0\0XEBP', 'RIFF\0\0\0\0WFBP', 'RIFF\0\0\0\0WEXP', 'RIFF\0\0\0\0WEBX', 'RIFX\0\0\0\0WEBP']) {
      assert.equal(detectImageType(Buffer.from(webp)), undefined, webp);
    }
    assert.equal(detectImageType(bytes()), undefined);
  });
});

describe('decodeText', () => {
  it('decodes UTF-8, dropping a leading byte order mark only', () => {
    assert.equal(decodeText(Buffer.from('\uFEFFhé\uFEFF')), 'hé\uFEFF');
  });

  it('refuses bytes with a NUL or that are not UTF-8', () => {
    assert.equal(decodeText(bytes(0x61, 0x00, 0x62)), undefined);
    assert.equal(decodeText(bytes(0x61, 0xff)), undefined);
  });
});

describe('readBoundedInput', () => {
  const file = (content: string) => {
    const path = join(tempDir(), 'input.txt');
    writeFileSync(path, content);
    return path;
  };
  const stdinOf = (...chunks: string[]) => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));

  it('reads a file of up to maxBytes, and refuses one byte more', async () => {
    const path = file('abcd');
    assert.equal((await readBoundedInput(path, new PassThrough(), 4)).toString(), 'abcd');
    await assert.rejects(readBoundedInput(path, new PassThrough(), 3), inputError(`${path}: larger than 3 bytes, the most one request can carry`));
  });

  it('reads stdin for `-`, counting every chunk against the limit', async () => {
    assert.equal((await readBoundedInput('-', stdinOf('ab', 'cd'), 4)).toString(), 'abcd');
    await assert.rejects(readBoundedInput('-', stdinOf('ab', 'cde'), 4), inputError('stdin: larger than 4 bytes, the most one request can carry'));
  });

  it('reads a device as a stream, stopping at the limit', async () => {
    assert.equal((await readBoundedInput('/dev/null', new PassThrough(), 4)).length, 0);
    await assert.rejects(readBoundedInput('/dev/zero', new PassThrough(), 100_000), inputError('/dev/zero: larger than 100000 bytes, the most one request can carry'));
  });

  it('names a missing file and a directory', async () => {
    const dir = tempDir();
    await assert.rejects(readBoundedInput(join(dir, 'nope'), new PassThrough(), 10), inputError(`${join(dir, 'nope')}: no such file`));
    await assert.rejects(readBoundedInput(dir, new PassThrough(), 10), inputError(`${dir}: is a directory, expected a file`));
  });
});
