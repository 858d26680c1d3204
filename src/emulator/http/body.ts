import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { MAX_REQUEST_NESTING, nestingProblem } from '../../core/json/nesting.js';
import { keyAt, namesAKeyTwice, repeatedKeyOffset, repeatedKeyProblem } from '../../core/json/repeated-keys.js';
import { EmulatorError, invalidRequest } from './errors.js';

/** How the emulator reads a request body: bounded in size and in time, then parsed as JSON within the nesting limit. */

/**
 * Reads the body, counting bytes as they arrive. A declared or streamed size over maxBytes is
 * rejected at once and the rest of the upload is discarded, never buffered; so is a body that has
 * not arrived within timeoutMs (a 408), so a slow client cannot hold a connection for ever.
 */
export function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    return Promise.reject(tooLarge(`request body is ${declared} bytes, over the limit of ${maxBytes} bytes for this endpoint`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Stay in flowing mode with no listener: the remaining bytes are dropped as they arrive.
    const refuse = (error: EmulatorError) => {
      clearTimeout(deadline);
      req.off('data', onData);
      chunks.length = 0;
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else refuse(tooLarge(`request body exceeds the limit of ${maxBytes} bytes for this endpoint`));
    };
    const deadline = setTimeout(() => refuse(closing(408, `the request body did not arrive within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    for (const settled of ['end', 'error', 'close']) req.once(settled, () => clearTimeout(deadline));
  });
}

const tooLarge = (message: string) => closing(413, message);

// The client may still be sending; closing tells it not to reuse this connection.
const closing = (status: 408 | 413, message: string) => new EmulatorError(status, message, undefined, { Connection: 'close' });

/** The body as JSON, undefined when empty; otherwise a 400 that quotes the parser's complaint, or names the nesting limit, a key named twice or bytes that are not UTF-8. */
export function parseJsonBody(body: Buffer): unknown {
  // JSON travels as UTF-8 (RFC 8259): other bytes would be read as U+FFFD and stored changed.
  if (!isUtf8(body)) throw invalidRequest([{ path: [], message: 'not UTF-8: a JSON body must be UTF-8 text' }]);
  const text = body.toString('utf8');
  if (text.trim() === '') return undefined;
  const tooDeep = nestingProblem(text, MAX_REQUEST_NESTING);
  if (tooDeep !== undefined) throw invalidRequest([{ path: [], message: `${tooDeep}, the emulator's limit` }]);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidRequest([{ path: [], message: `not valid JSON: ${reason}` }]);
  }
  if (!namesAKeyTwice(text, value)) return value;
  const repeated = repeatedKeyOffset(text);
  throw invalidRequest([{ path: [], message: repeatedKeyProblem(keyAt(text, repeated), `at character ${repeated + 1} of the body`) }]);
}
