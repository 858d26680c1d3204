import { readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { CsafeError, InputError } from '../errors.js';
import { fileError, openFileStream } from './sources.js';

// Reading an input whole, for the commands that send it as one piece: its bytes, and whether they are
// text or an image of a known type.

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The image type told by magic bytes, not by the file's extension. */
export function detectImageType(bytes: Uint8Array): ImageType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) {
    return 'image/webp';
  }
  return undefined;
}

/** UTF-8 text, or undefined for bytes that are not (binary data, other encodings). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
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
