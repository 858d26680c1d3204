import type { IncomingMessage } from 'node:http';
import { EmulatorError, invalidRequest } from './errors.js';

/**
 * Reads the body, counting bytes as they arrive. A declared or streamed size over maxBytes is
 * rejected at once and the rest of the upload is discarded, never buffered.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    return Promise.reject(tooLarge(`request body is ${declared} bytes, over the limit of ${maxBytes} bytes for this endpoint`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      // Stay in flowing mode with no listener: the remaining bytes are dropped as they arrive.
      req.off('data', onData);
      chunks.length = 0;
      reject(tooLarge(`request body exceeds the limit of ${maxBytes} bytes for this endpoint`));
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function tooLarge(message: string): EmulatorError {
  return new EmulatorError(413, message, undefined, {
    // The client may still be uploading; closing tells it not to reuse this connection.
    Connection: 'close',
  });
}

/** The body as JSON, undefined when empty; a 400 that quotes the parser's complaint otherwise. */
export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidRequest([{ path: [], message: `not valid JSON: ${reason}` }]);
  }
}
