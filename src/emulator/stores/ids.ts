import { randomBytes } from 'node:crypto';

/** What the emulator's ids look like, and which text may be one. */

/** A new id of one kind: `<prefix>_` and 24 hex digits, e.g. req_…, imp_…, bat_…. */
export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Whether text is an id newId(prefix) could have made: only such ids are looked up on disk. */
export const isIdOf = (prefix: string, text: string) => text.startsWith(`${prefix}_`) && /^[0-9a-f]{24}$/.test(text.slice(prefix.length + 1));

/** The id of an accepted request, as every area that accepts one answers it. */
export const newRequestId = () => newId('req');

export const isRequestId = (text: string) => isIdOf('req', text);
