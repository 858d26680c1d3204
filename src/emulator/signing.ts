import { createHmac, timingSafeEqual } from 'node:crypto';

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
  const expires = query.get(EXPIRES) ?? '';
  const given = Buffer.from(query.get(SIGNATURE) ?? '', 'hex');
  const expected = Buffer.from(sign(secret, operation, expires), 'hex');
  if (!/^\d+$/.test(expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) return 'mismatch';
  return now >= Number(expires) * 1000 ? 'expired' : 'valid';
}

function sign(secret: Buffer, { method, key, contentType }: SignedOperation, expires: string): string {
  return createHmac('sha256', secret).update(`${method}\n${key}\n${expires}\n${contentType}`).digest('hex');
}
