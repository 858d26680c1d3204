import { randomBytes } from 'node:crypto';

/** The id of an accepted request, as every area that accepts one answers it. */
export const newRequestId = () => `req_${randomBytes(12).toString('hex')}`;

/** Whether text is an id newRequestId could have made: only such ids are looked up on disk. */
export const isRequestId = (text: string) => /^req_[0-9a-f]{24}$/.test(text);
