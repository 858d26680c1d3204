import { randomBytes, randomUUID } from 'node:crypto';

/** What the emulator's ids look like, and which text may be one. */

/** A new id of one kind: `<prefix>_` and 24 hex digits, e.g. req_…, imp_…, bat_…. */
export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

let lastStamp = 0;

/**
 * A new id that sorts after every one made before it in this process (and, the clock willing,
 * before it in earlier ones): 15 hex digits of a stamp in microseconds that only rises, then 9
 * random, so a listing paged by `after` resumes in the right place even when the id it was given
 * has since been forgotten. randomUUID draws its entropy in bulk: cheap for a burst of thousands.
 */
export function newOrderedId(prefix: string): string {
  lastStamp = Math.max(Date.now() * 1000, lastStamp + 1);
  return `${prefix}_${lastStamp.toString(16).padStart(15, '0')}${randomUUID().slice(-9)}`;
}

/** Whether text is an id newId(prefix) could have made: only such ids are looked up on disk. */
export const isIdOf = (prefix: string, text: string) => text.startsWith(`${prefix}_`) && /^[0-9a-f]{24}$/.test(text.slice(prefix.length + 1));

/** The id of an accepted request, as every area that accepts one answers it. */
export const newRequestId = () => newId('req');

export const isRequestId = (text: string) => isIdOf('req', text);
