import { createHmac, timingSafeEqual } from 'node:crypto';

/** How the emulator's pre-signed URLs and review links are signed and checked. */

/** What a pre-signed URL allows: one method on one object key, with one Content-Type. */
export interface SignedOperation {
  method: 'PUT' | 'GET';
  key: string;
  contentType: string;
}

const EXPIRES = 'X-Csafe-Expires';
const SIGNATURE = 'X-Csafe-Signature';

/** URLs carry whole seconds, as S3's do; `expiresAt` in milliseconds is rounded down to one. */
export const toWholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/** `<baseUrl>/_storage/<key>?X-Csafe-Expires=<unix seconds>&X-Csafe-Signature=<hex HMAC-SHA256>` */
export function presignedUrl(secret: Buffer, baseUrl: string, operation: SignedOperation, expiresAt: number): string {
  const expires = String(Math.floor(expiresAt / 1000));
  const path = operation.key.split('/').map(encodeURIComponent).join('/');
  return `${baseUrl}/_storage/${path}?${EXPIRES}=${expires}&${SIGNATURE}=${sign(secret, operation, expires)}`;
}

export type SignatureCheck = 'valid' | 'mismatch' | 'expired';

/** Checks the signature first, so a tampered expiry is a mismatch and not merely expired. */
export function checkSignature(secret: Buffer, operation: SignedOperation, query: URLSearchParams, now: number): SignatureCheck {
  const expires = onlyValue(query, EXPIRES);
  if (expires === undefined || !/^\d+$/.test(expires) || !signatureMatches(query, sign(secret, operation, expires))) return 'mismatch';
  return now >= Number(expires) * 1000 ? 'expired' : 'valid';
}

/** `<baseUrl><path>?X-Csafe-Signature=…`: a GET link that does not expire (review links), signed over its path. */
export function signedLink(secret: Buffer, baseUrl: string, path: string): string {
  return `${baseUrl}${path}?${SIGNATURE}=${sign(secret, linkOperation(path), '')}`;
}

export const checkLinkSignature = (secret: Buffer, path: string, query: URLSearchParams): boolean =>
  signatureMatches(query, sign(secret, linkOperation(path), ''));

/** Paths start with "/", object keys never do, so a link's signature is never a valid object-store one. */
const linkOperation = (path: string): SignedOperation => ({ method: 'GET', key: path, contentType: '' });

/**
 * Exactly one signature parameter of exactly 64 lowercase hex characters, equal to the expected
 * one. Checked as text first: Buffer.from(hex) would stop at the first character that is not hex.
 */
function signatureMatches(query: URLSearchParams, expected: string): boolean {
  const given = onlyValue(query, SIGNATURE);
  if (given === undefined || !/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'));
}

/** The parameter's value when it occurs exactly once; a repeated parameter is refused, not resolved. */
function onlyValue(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

function sign(secret: Buffer, { method, key, contentType }: SignedOperation, expires: string): string {
  return createHmac('sha256', secret).update(`${method}\n${key}\n${expires}\n${contentType}`).digest('hex');
}
