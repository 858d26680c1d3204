import { hash } from 'node:crypto';

// JSON that is the same for the same content, whatever its key order, and the keys derived from
// it: what makes a re-run over the same file send the same key, so the service applies it once.

type JsonObject = Record<string, unknown>;

/** JSON with object keys sorted at every level, so equal values give equal text whatever their key order; `omit` leaves out one top-level key. */
export function canonicalJson(value: unknown, omit?: string): string {
  if (typeof value === 'string') return jsonString(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) text += (index === 0 ? '' : ',') + canonicalJson(value[index]);
    return text + ']';
  }
  const record = value as JsonObject;
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    if (key === omit) continue;
    const member = record[key];
    text += (text === '{' ? '' : ',') + memberName(key) + canonicalJson(member);
  }
  return text + '}';
}

/**
 * A key derived from a record's content alone, `omit` (the key's own field) left out: a retry,
 * or a re-run over the same file, sends the same key. Two records identical in every other field
 * are taken to be the same one.
 */
export const contentKey = (record: JsonObject, omit: string): string => `csafe-${hash('sha256', canonicalJson(record, omit), 'hex').slice(0, 32)}`;

/** Characters JSON.stringify writes escaped: a quote, a backslash, control characters, and (lone) surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(text), without its call for the common text that needs no escape (most of an event's strings). */
export const jsonString = (text: string): string => (ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`);

/** Field names written as JSON once each (events share a few dozen), up to a bound: metadata may bring any number. */
const memberNames = new Map<string, string>();
const MEMBER_NAMES_KEPT = 4096;

function memberName(key: string): string {
  let name = memberNames.get(key);
  if (name === undefined) {
    name = `${JSON.stringify(key)}:`;
    if (memberNames.size < MEMBER_NAMES_KEPT) memberNames.set(key, name);
  }
  return name;
}
