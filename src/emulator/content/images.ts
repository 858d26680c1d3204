import { createHash } from 'node:crypto';
import { base64Payload } from '../../schemas/content.js';
import type { FieldPath, FieldProblem } from '../../schemas/issues.js';

/** Whether submitted images are images of a format the service accepts, and their digests for the reference sets. */

const ascii = (text: string) => Buffer.from(text, 'latin1');
const startsWith = (bytes: Buffer, prefix: Buffer, offset = 0) =>
  bytes.length >= offset + prefix.length && bytes.subarray(offset, offset + prefix.length).equals(prefix);

/** Magic bytes of the image formats the service accepts. */
const SIGNATURES: Readonly<Record<string, (bytes: Buffer) => boolean>> = {
  png: (b) => startsWith(b, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (b) => startsWith(b, Buffer.from([0xff, 0xd8, 0xff])),
  gif: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')),
  webp: (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8),
};

export interface SubmittedImage {
  /** Where the image sits in the request, for error messages. */
  path: FieldPath;
  /** Base64, raw or as a data URI. */
  data: string;
}

/**
 * Decodes every image and returns the SHA-256 digests of their bytes (what reference sets hold),
 * or lists each image that is not PNG, JPEG, GIF or WebP bytes.
 */
export function digestImages(images: readonly SubmittedImage[]): { digests: string[]; problems: FieldProblem[] } {
  const digests: string[] = [];
  const problems: FieldProblem[] = [];
  for (const image of images) {
    const bytes = Buffer.from(base64Payload(image.data), 'base64');
    if (Object.values(SIGNATURES).some((matches) => matches(bytes))) {
      digests.push(sha256Hex(bytes));
    } else {
      problems.push({ path: image.path, message: 'base64 data does not decode to PNG, JPEG, GIF or WebP image bytes' });
    }
  }
  return { digests, problems };
}

function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
