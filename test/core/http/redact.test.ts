import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { maskKey, redactHeaders, redactSecrets, redactUrl } from '../../../src/core/http/redact.js';
import { sanitizeForTerminal } from '../../../src/core/terminal/sanitize.js';

describe('redaction', () => {
  it('redacts the signature parameters of pre-signed URLs, keeping the rest', () => {
    const url = 'https://bucket.s3.amazonaws.com/up/file.jsonl?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20261121&X-Amz-Signature=abcdef0123&X-Amz-Expires=3600&part=1';
    const redacted = redactUrl(url);
    assert.ok(!redacted.includes('abcdef0123') && !redacted.includes('AKIA'));
    assert.match(redacted, /X-Amz-Signature=\[REDACTED\]/);
    assert.match(redacted, /X-Amz-Algorithm=AWS4-HMAC-SHA256/);
    assert.match(redacted, /part=1/);
    assert.match(redactUrl('http://127.0.0.1:4477/_uploads/abc?expires=1&signature=deadbeef'), /signature=\[REDACTED\]/);
  });

  it('redacts userinfo in URLs', () => {
    assert.ok(!redactUrl('https://user:pass@host/x').includes('pass'));
    // Text that does not parse as a URL (a port out of range) still has its user name and password masked.
    assert.equal(redactUrl('https://user:pass@host:99999/x'), 'https://***@host:99999/x');
  });

  it('redacts the Authorization header and keeps others', () => {
    assert.deepEqual(redactHeaders({ Authorization: 'Bearer sk_x', 'content-type': 'application/json' }), {
      Authorization: '[REDACTED]',
      'content-type': 'application/json',
    });
  });

  it('replaces known secrets anywhere in a message', () => {
    assert.equal(redactSecrets('bad key sk_live_123456 here', ['sk_live_123456']), 'bad key [REDACTED] here');
  });

  it('masks keys as prefix…last4', () => {
    assert.equal(maskKey('sk_live_abcdef9f2c'), 'sk_…9f2c');
    assert.equal(maskKey('abcdefghijklmnop'), '…mnop');
    assert.equal(maskKey('short'), '…****');
  });

  it('shows control characters from the server in caret notation', () => {
    assert.equal(sanitizeForTerminal('a\u001b[31mred\u0007\tb\nc\u009b'), 'a^[[31mred^G\tb\nc\\u009b');
  });
});

describe('IOStreams on a terminal', () => {
  it('sanitises text from elsewhere but keeps its own colours', async () => {
    const { bufferIO } = await import('../../helpers/io.js');
    const { createIOStreams } = await import('../../../src/core/terminal/io.js');
    const { PassThrough } = await import('node:stream');
    let stderr = '';
    const err = Object.assign(new PassThrough(), { isTTY: true });
    err.on('data', (c) => (stderr += c));
    const { Chalk } = await import('chalk');
    const io = createIOStreams({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: err, env: { FORCE_COLOR: '1' }, Chalk });
    io.error('server said \u001b]0;pwned\u0007');
    assert.equal(stderr, '\u001b[31mserver said ^[]0;pwned^G\u001b[39m\n');
    const quiet = bufferIO({ tty: true, quiet: true });
    quiet.io.note('hidden');
    quiet.io.warn('shown');
    assert.equal(quiet.stderr(), 'shown\n');
    assert.equal(quiet.io.animate, false);
    assert.equal(bufferIO({ tty: true }).io.animate, true);
    assert.equal(bufferIO({ tty: false }).io.animate, false);
  });
});

describe('redaction edges', () => {
  it('redacts each kind of signature parameter and nothing that only looks like one', () => {
    const names = ['X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token', 'token', 'sig', 'sv', 'se', 'sp', 'st', 'apikey', 'Expires'];
    const lookalikes = ['sig', 'sv', 'se', 'sp', 'st'].flatMap((name) => [`x${name}=1`, `${name}x=1`]).join('&');
    const url = `https://store.example/o?${names.map((name) => `${name}=v`).join('&')}&${lookalikes}&part=4`;
    assert.equal(redactUrl(url), `https://store.example/o?${names.map((name) => `${name}=[REDACTED]`).join('&')}&${lookalikes}&part=4`);
  });

  it('redacts a password alone, keeps a URL without userinfo, and returns text that is no URL as it is', () => {
    assert.equal(redactUrl('https://:pw@host.example/'), 'https://[REDACTED]@host.example/');
    assert.equal(redactUrl('https://host.example/a?b=c'), 'https://host.example/a?b=c');
    assert.equal(redactUrl('not a url ?sig=1'), 'not a url ?sig=1');
  });

  it('redacts every secret header whatever its case', () => {
    assert.deepEqual(
      redactHeaders({ Authorization: 'a', 'Proxy-Authorization': 'b', Cookie: 'c', 'set-cookie': 'd', 'X-API-Key': 'e', accept: 'f' }),
      { Authorization: '[REDACTED]', 'Proxy-Authorization': '[REDACTED]', Cookie: '[REDACTED]', 'set-cookie': '[REDACTED]', 'X-API-Key': '[REDACTED]', accept: 'f' },
    );
  });

  it('replaces secrets of four characters or more, every time they occur', () => {
    assert.equal(redactSecrets('abc abcd abcd', ['abc', 'abcd']), 'abc [REDACTED] [REDACTED]');
  });

  it('masks keys of twelve characters or more, with a prefix only up to its eighth character', () => {
    assert.equal(maskKey('abcdefghijk'), '…****');
    assert.equal(maskKey('abcdefghijkl'), '…ijkl');
    assert.equal(maskKey('_bcdefghijkl'), '…ijkl');
    assert.equal(maskKey('abcdefgh_jklmnopqrstu'), 'abcdefgh_…rstu');
    assert.equal(maskKey('abcdefghi_klmn'), '…klmn');
  });

  it('never shows most of a key: its prefix only when eight characters or more stay hidden', () => {
    assert.equal(maskKey('abcdefgh_wxyz'), '…wxyz');
    assert.equal(maskKey('abcdefgh_jklmn'), '…klmn');
    assert.equal(maskKey('sk_abcdefghwxyz'), 'sk_…wxyz');
    assert.equal(maskKey('sk_abcdefgwxyz'), '…wxyz');
  });
});
