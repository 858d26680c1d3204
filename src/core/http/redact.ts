/** What of a request may be shown: URLs, headers and messages with their credentials masked. */

const REDACTED = '[REDACTED]';

/** Query parameters that make a pre-signed URL a credential (S3, GCS, Azure and our emulator). */
const SIGNATURE_PARAM = /signature|credential|security-token|token|^sig$|^sv$|^se$|^sp$|^st$|key|expires/i;

/** A URL fit for a log line: signature parameters of pre-signed URLs and any userinfo are redacted. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return maskUserInfo(url);
  }
  if (parsed.username || parsed.password) {
    parsed.username = REDACTED;
    parsed.password = '';
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (SIGNATURE_PARAM.test(name)) parsed.searchParams.set(name, REDACTED);
  }
  return parsed.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED);
}

/** `https://user:pass@host/…` → `https://***@host/…`, for text that may not even parse as a URL. */
export const maskUserInfo = (text: string) => text.replace(/^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i, '$1***@');

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : value]),
  );
}

/** Last line of defence: any known secret that slipped into a message is replaced. */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Characters of a key a mask always hides: with the prefix and the last four shown, a short key would be shown nearly whole. */
const HIDDEN_AT_LEAST = 8;

/** `sk_live_abcdef9f2c` → `sk_…9f2c`: enough to tell keys apart, not enough to use one. */
export function maskKey(key: string): string {
  if (key.length < 4 + HIDDEN_AT_LEAST) return '…' + '*'.repeat(4);
  const underscore = key.indexOf('_');
  const prefix = underscore > 0 && underscore <= 8 ? key.slice(0, underscore + 1) : '';
  const shownPrefix = key.length - prefix.length - 4 >= HIDDEN_AT_LEAST ? prefix : '';
  return `${shownPrefix}…${key.slice(-4)}`;
}
