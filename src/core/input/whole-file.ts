import { readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { CsafeError, InputError } from '../errors.js';
import { fileError, openFileStream } from './sources.js';

// Reading an input whole, for the commands that send it as one piece: its bytes, and whether they are
// text (core/input/images tells an image).

/** UTF-8 text, or undefined for bytes that are not (binary data, other encodings); a leading byte order mark is dropped, as TextDecoder does by default. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A whole file (or stdin for `-`) read into memory, refusing anything over maxBytes so a wrong
 * argument (a video, a dump, /dev/zero) fails fast instead of filling memory. A pipe or a device
 * (`<(…)`, a FIFO, /dev/stdin) is read like stdin, once, and Ctrl-C (the signal) stops a read
 * that waits on one.
 */
export async function readBoundedInput(path: string, stdin: Readable, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  const name = path === '-' ? 'stdin' : path;
  const tooBig = () => new InputError(`${name}: larger than ${maxBytes} bytes, the most one request can carry`);
  try {
    if (path === '-') return await readStreamBounded(stdin, maxBytes, tooBig);
    const stats = await stat(path);
    if (stats.isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    if (!stats.isFile()) return await readOwnStreamBounded(openFileStream(path, signal), maxBytes, tooBig);
    if (stats.size > maxBytes) throw tooBig();
    return await readFile(path);
  } catch (error) {
    throw error instanceof CsafeError ? error : fileError(name, error);
  }
}

/** A stream read whole, refused (`tooBig`) once it passes maxBytes: a request body, stdin. */
export async function readStreamBounded(stream: Readable, maxBytes: number, tooBig: () => InputError): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooBig();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A stream this module opened: closed however the read ends (an endless device is never drained). */
async function readOwnStreamBounded(stream: Readable, maxBytes: number, tooBig: () => InputError): Promise<Buffer> {
  try {
    return await readStreamBounded(stream, maxBytes, tooBig);
  } finally {
    stream.destroy();
  }
}
