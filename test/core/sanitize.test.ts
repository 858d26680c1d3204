import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sanitizeForTerminal } from '../../src/core/sanitize.js';

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
