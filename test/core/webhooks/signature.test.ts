import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { DEFAULT_TOLERANCE_SECONDS, MalformedSecretError, newSecret, secretKey, sign, signedHeaders, usableSecret, verify } from '../../../src/core/webhooks/signature.js';
import { UsageError } from '../../../src/core/errors.js';

// The Standard Webhooks test vector, from the specification's reference libraries.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const received = (overrides: Partial<{ id: string; timestamp: string; signature: string; body: string }> = {}) => ({
  id: VECTOR.id,
  timestamp: String(VECTOR.timestamp),
  signature: VECTOR.signature,
  ...overrides,
  body: Buffer.from(overrides.body ?? VECTOR.body),
});
const at = (seconds: number, toleranceSeconds = 300) => ({ nowSeconds: seconds, toleranceSeconds });

describe('Standard Webhooks signatures', () => {
  it('signs the test vector as the specification does, and verifies it', () => {
    assert.equal(sign(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body), VECTOR.signature);
    assert.deepEqual(verify(VECTOR.secret, received(), at(VECTOR.timestamp)), { valid: true });
  });

  it('refuses a tampered body, another id, another secret, and says which check failed', () => {
    assert.deepEqual(verify(VECTOR.secret, received({ body: '{"test": 2432232315}' }), at(VECTOR.timestamp)), { valid: false, reason: 'signature does not match' });
    assert.deepEqual(verify(VECTOR.secret, received({ id: 'msg_other' }), at(VECTOR.timestamp)), { valid: false, reason: 'signature does not match' });
    assert.deepEqual(verify(newSecret(), received(), at(VECTOR.timestamp)), { valid: false, reason: 'signature does not match' });
    assert.deepEqual(verify(VECTOR.secret, received({ signature: 'v2,abc' }), at(VECTOR.timestamp)), { valid: false, reason: 'no v1 entry in the signature' });
  });

  it('compares the base64 text itself, as the reference libraries do: no padding, base64url or trailing junk passes', () => {
    const mac = VECTOR.signature.slice(3);
    for (const variant of [mac.replace(/=+$/, ''), mac.replaceAll('+', '-').replaceAll('/', '_'), `${mac}junk`, `${mac.slice(0, 10)}!${mac.slice(10)}`]) {
      assert.deepEqual(verify(VECTOR.secret, received({ signature: `v1,${variant}` }), at(VECTOR.timestamp)), { valid: false, reason: 'signature does not match' }, variant);
      assert.throws(() => new Webhook(VECTOR.secret).verify(VECTOR.body, { 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': `v1,${variant}` }), Error, `the reference refuses ${variant} too`);
    }
  });

  it('takes any v1 entry of a list (a secret being rotated signs twice)', () => {
    const list = `v1,${Buffer.alloc(32).toString('base64')} ${VECTOR.signature}`;
    assert.deepEqual(verify(VECTOR.secret, received({ signature: list }), at(VECTOR.timestamp)), { valid: true });
  });

  it('refuses a timestamp further than the tolerance either way; 0 does not check it', () => {
    assert.deepEqual(verify(VECTOR.secret, received(), at(VECTOR.timestamp + 12 * 60)), { valid: false, reason: 'timestamp 12 min old (tolerance 5 min)' });
    assert.deepEqual(verify(VECTOR.secret, received(), at(VECTOR.timestamp - 400)), { valid: false, reason: 'timestamp 7 min in the future (tolerance 5 min)' });
    assert.deepEqual(verify(VECTOR.secret, received(), at(VECTOR.timestamp + 300)), { valid: true }, 'at the edge');
    assert.deepEqual(verify(VECTOR.secret, received(), at(VECTOR.timestamp + 10 ** 8, 0)), { valid: true });
    assert.deepEqual(verify(VECTOR.secret, received({ timestamp: '16e8' }), at(VECTOR.timestamp)), { valid: false, reason: 'timestamp "16e8" is not a number of seconds' });
  });

  it('says how far off a timestamp is in the unit a person reads: seconds, minutes, hours, days', () => {
    const reason = (skew: number, toleranceSeconds = 60) => (verify(VECTOR.secret, received(), at(VECTOR.timestamp + skew, toleranceSeconds)) as { reason: string }).reason;
    assert.equal(reason(119, 30), 'timestamp 119 s old (tolerance 30 s)');
    assert.equal(reason(120), 'timestamp 2 min old (tolerance 60 s)');
    assert.equal(reason(-150), 'timestamp 3 min in the future (tolerance 60 s)');
    assert.equal(reason(2 * 3600 - 1), 'timestamp 120 min old (tolerance 60 s)');
    assert.equal(reason(2 * 3600), 'timestamp 2 h old (tolerance 60 s)');
    assert.equal(reason(2 * 86_400 - 1), 'timestamp 48 h old (tolerance 60 s)');
    assert.equal(reason(2 * 86_400), 'timestamp 2 days old (tolerance 60 s)');
    assert.equal(reason(61, 60), 'timestamp 61 s old (tolerance 60 s)');
    assert.deepEqual(verify(VECTOR.secret, received(), at(VECTOR.timestamp - 60, 60)), { valid: true }, 'at the edge in the future');
  });

  it('refuses a signature header with no v1 entry, and finds one among spaces', () => {
    assert.deepEqual(verify(VECTOR.secret, received({ signature: 'v2,abc  v1a,xyz' }), at(VECTOR.timestamp)), { valid: false, reason: 'no v1 entry in the signature' });
    assert.deepEqual(verify(VECTOR.secret, received({ signature: '' }), at(VECTOR.timestamp)), { valid: false, reason: 'no v1 entry in the signature' });
    assert.deepEqual(verify(VECTOR.secret, received({ signature: `  v2,abc   ${VECTOR.signature}  ` }), at(VECTOR.timestamp)), { valid: true });
    assert.deepEqual(verify(VECTOR.secret, received({ timestamp: '1234567890123456' }), at(VECTOR.timestamp)), { valid: false, reason: 'timestamp "1234567890123456" is not a number of seconds' });
  });

  it('checks a secret given by a flag, naming the flag and how a secret looks', () => {
    assert.equal(usableSecret(VECTOR.secret, '--secret'), VECTOR.secret);
    assert.throws(() => usableSecret('whsec_c2hvcnQ=', '--secret'), (error: unknown) =>
      error instanceof UsageError && error.message === '--secret: malformed secret: its key is 5 bytes, expected at least 16' && error.hint === "a signing secret is whsec_ followed by base64, as the endpoint's settings show it");
    assert.match(newSecret(), /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.notEqual(newSecret(), newSecret());
  });

  it('takes a secret of 16 bytes or more in plain base64, and refuses one shorter, with junk around it, or of an impossible length', () => {
    const secret = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;
    assert.equal(secretKey(secret(16)).length, 16);
    assert.equal(secretKey(secret(24)).length, 24);
    assert.throws(() => secretKey(secret(15)), (error: unknown) => error instanceof MalformedSecretError && error.message === 'malformed secret: its key is 15 bytes, expected at least 16');
    for (const bad of [`${secret(24)}!`, `whsec_!${secret(24).slice(6)}`, `${secret(24)}!!!!`, `whsec_!!!!${secret(24).slice(6)}`, `whsec_${'A'.repeat(33)}`]) {
      assert.throws(() => secretKey(bad), (error: unknown) => error instanceof MalformedSecretError && error.message === 'malformed secret: expected whsec_ followed by base64', bad);
    }
    assert.equal(secretKey(secret(24).slice('whsec_'.length)).length, 24, 'the prefix may be left out');
    assert.equal(DEFAULT_TOLERANCE_SECONDS, 300);
  });

  it('a malformed secret is the caller\'s mistake: thrown, not a verdict', () => {
    for (const secret of ['whsec_not base64!', 'whsec_', 'whsec_c2hvcnQ=']) assert.throws(() => verify(secret, received(), at(VECTOR.timestamp)), MalformedSecretError, secret);
  });

  it('agrees with the standardwebhooks package both ways, for new secrets and bodies of any bytes', () => {
    for (let i = 0; i < 20; i++) {
      const secret = newSecret();
      const body = JSON.stringify({ i, text: `héllo ✓ ${'x'.repeat(i * 37)}` });
      const timestamp = Math.floor(Date.now() / 1000);
      const ours = signedHeaders(secret, `msg_${i}`, timestamp, body);
      assert.deepEqual(new Webhook(secret).verify(body, { ...ours }), JSON.parse(body));
      const theirs = new Webhook(secret).sign(`msg_${i}`, new Date(timestamp * 1000), body);
      assert.equal(theirs, ours['webhook-signature']);
    }
  });
});
