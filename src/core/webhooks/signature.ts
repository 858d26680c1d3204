import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { UsageError } from '../errors.js';

// Standard Webhooks signatures (https://www.standardwebhooks.com), as the service signs its
// notifications: the emulator signs with them, `csafe webhooks verify` checks them. Node's crypto
// only: the emulator uses it too.

/** The prefix of a signing secret; the rest is the key, in base64. */
const SECRET_PREFIX = 'whsec_';

/** How far a notification's timestamp may be from now, either way, by default (the service's receivers' rule). */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** A secret that is not `whsec_` and base64. */
export class MalformedSecretError extends Error {}

/** The key of a `whsec_…` secret (the prefix may be left out, as the reference libraries allow). */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 === 1) throw new MalformedSecretError('malformed secret: expected whsec_ followed by base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 16) throw new MalformedSecretError(`malformed secret: its key is ${key.length} bytes, expected at least 16`);
  return key;
}

/** A secret given by a flag, checked: a malformed one is a usage error naming the flag. */
export function usableSecret(secret: string, flag: string): string {
  try {
    secretKey(secret);
  } catch (error) {
    if (error instanceof MalformedSecretError) throw new UsageError(`${flag}: ${error.message}`, { hint: 'a signing secret is whsec_ followed by base64, as the endpoint\'s settings show it' });
    throw error;
  }
  return secret;
}

/** A new secret: 24 random bytes, as the service's are. */
export const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`: one entry of the webhook-signature header. */
export function sign(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a signed notification. */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signedHeaders(secret: string, id: string, timestamp: number, body: string | Buffer): SignedHeaders {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(secret, id, timestamp, body) };
}

/** What a receiver checks: the headers as received, the raw body. */
export interface Received {
  id: string;
  timestamp: string;
  /** The webhook-signature header: space-separated `v1,…` entries (a secret being rotated signs twice). */
  signature: string;
  body: Buffer;
}

export type Verdict = { valid: true } | { valid: false; reason: string };

/**
 * The receiver's check: the timestamp within `toleranceSeconds` of now (0: not checked), and one
 * `v1` entry of the signature header equal, in constant time, to the body's signature. A
 * malformed secret throws MalformedSecretError: that is the caller's mistake, not the sender's.
 */
export function verify(secret: string, received: Received, options: { nowSeconds: number; toleranceSeconds: number }): Verdict {
  const key = secretKey(secret);
  if (!/^\d{1,15}$/.test(received.timestamp)) return { valid: false, reason: `timestamp ${JSON.stringify(received.timestamp)} is not a number of seconds` };
  const skew = options.nowSeconds - Number(received.timestamp);
  if (options.toleranceSeconds > 0 && Math.abs(skew) > options.toleranceSeconds) {
    return { valid: false, reason: `timestamp ${describeSkew(skew)} (tolerance ${describeSeconds(options.toleranceSeconds)})` };
  }
  // The base64 text itself is compared, as the reference libraries do: a lenient decoding would take variants they refuse.
  const expected = Buffer.from(createHmac('sha256', key).update(`${received.id}.${received.timestamp}.`).update(received.body).digest('base64'));
  const entries = received.signature.split(' ').filter((entry) => entry !== '');
  const v1 = entries.filter((entry) => entry.startsWith('v1,')).map((entry) => Buffer.from(entry.slice(3)));
  if (v1.length === 0) return { valid: false, reason: 'no v1 entry in the signature' };
  return v1.some((mac) => mac.length === expected.length && timingSafeEqual(mac, expected)) ? { valid: true } : { valid: false, reason: 'signature does not match' };
}

const describeSkew = (skew: number) => (skew >= 0 ? `${describeSeconds(skew)} old` : `${describeSeconds(-skew)} in the future`);

function describeSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86_400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}
