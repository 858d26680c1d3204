import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstNotUtf8, Utf8Check } from '../../../src/core/input/utf8.js';

/** The first and last characters of each UTF-8 length (1 to 4 bytes), and one of each between. */
const CHARACTERS = ['\u0000', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '日', '\uffff', '\u{10000}', '😀', '\u{10ffff}'];

describe('Utf8Check', () => {
  it('takes every character however two chunks cut it, and says at the end that nothing was left cut', () => {
    for (const character of CHARACTERS) {
      const bytes = Buffer.from(`a${character}b`);
      for (let at = 0; at <= bytes.length; at++) {
        const check = new Utf8Check();
        assert.equal(check.feed(bytes.subarray(0, at)), true, `${JSON.stringify(character)} cut at ${at}`);
        assert.equal(check.feed(bytes.subarray(at)), true, `${JSON.stringify(character)} cut at ${at}`);
        assert.equal(check.end(), true);
      }
    }
  });

  it('says a character the input ends in the middle of is not UTF-8, at the end', () => {
    for (const character of CHARACTERS.filter((c) => Buffer.byteLength(c) > 1)) {
      const bytes = Buffer.from(character);
      for (let cut = 1; cut < bytes.length; cut++) {
        const check = new Utf8Check();
        assert.equal(check.feed(Buffer.concat([Buffer.from('a'), bytes.subarray(0, cut)])), true);
        assert.equal(check.end(), false, `${JSON.stringify(character)} cut after ${cut} bytes`);
      }
    }
  });

  it('refuses bytes that are not UTF-8, whole or cut across chunks', () => {
    for (const bad of [[0xff], [0xc0, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xc3, 0x28]]) {
      const bytes = Buffer.from([0x61, ...bad, 0x62]);
      const whole = new Utf8Check();
      assert.equal(whole.feed(bytes) && whole.end(), false, Buffer.from(bad).toString('hex'));
      const cut = new Utf8Check();
      assert.equal(cut.feed(bytes.subarray(0, 2)) && cut.feed(bytes.subarray(2)) && cut.end(), false, Buffer.from(bad).toString('hex'));
    }
  });
});

describe('firstNotUtf8', () => {
  it('is the length of bytes that are all UTF-8', () => {
    for (const text of ['', 'a', 'abc', CHARACTERS.join('')]) assert.equal(firstNotUtf8(Buffer.from(text)), Buffer.byteLength(text));
  });

  it('is where the first character that is not UTF-8 starts, also a character cut at the end', () => {
    const latin1 = Buffer.from('ab\xe9cd', 'latin1');
    assert.equal(firstNotUtf8(latin1), 2);
    assert.equal(firstNotUtf8(Buffer.concat([Buffer.from('é日'), Buffer.from([0xff]), Buffer.from('x')])), 5);
    assert.equal(firstNotUtf8(Buffer.concat([Buffer.from('ab'), Buffer.from('😀').subarray(0, 3)])), 2);
    assert.equal(firstNotUtf8(Buffer.from([0xff])), 0);
  });
});
