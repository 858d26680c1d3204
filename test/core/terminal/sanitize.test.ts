import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { escapeC1Controls, sanitizeForTerminal, sanitizeStreamForTerminal } from '../../../src/core/terminal/sanitize.js';

describe('sanitizeForTerminal', () => {
  it('shows C0 controls in caret notation, keeping tab and newline', () => {
    assert.equal(sanitizeForTerminal('\u0000\u0001\u0008\t\n\u000b\u000c\r\u001b\u001f'), '^@^A^H\t\n^K^L^M^[^_');
  });

  it('shows DEL as ^? and C1 controls as escapes', () => {
    assert.equal(sanitizeForTerminal('\u007f\u0080\u009b\u009f'), '^?\\u0080\\u009b\\u009f');
  });

  it('keeps printable text on both sides of the control ranges', () => {
    const printable = ' ~\u00a0é漢';
    assert.equal(sanitizeForTerminal(printable), printable);
  });
});

describe('escapeC1Controls', () => {
  it('escapes DEL and C1 controls as JSON does, and nothing else', () => {
    assert.equal(escapeC1Controls('\u007e\u007f\u0080\u009b\u009f\u00a0\u001b\t'), '\u007e\\u007f\\u0080\\u009b\\u009f\u00a0\u001b\t');
  });
});

describe('sanitizeStreamForTerminal', () => {
  const shown = async (...chunks: string[]) => {
    let text = '';
    for await (const part of sanitizeStreamForTerminal(Readable.from(chunks.map((chunk) => Buffer.from(chunk))))) text += part;
    return text;
  };

  it('keeps CRLF line ends, a CR alone shown as ^M, also where a chunk ends between CR and LF', async () => {
    assert.equal(await shown('a\r\nb\rc\r\n'), 'a\r\nb^Mc\r\n');
    assert.equal(await shown('a\r', '\nb\r', 'c\r'), 'a\r\nb^Mc^M');
  });

  it('shows controls in caret notation and keeps a character whose bytes two chunks split, and a byte order mark', async () => {
    const euro = Buffer.from('\ufeff€\u001b[2J');
    let text = '';
    for await (const part of sanitizeStreamForTerminal(Readable.from([euro.subarray(0, 4), euro.subarray(4)]))) text += part;
    assert.equal(text, '\ufeff€^[[2J');
  });
});
