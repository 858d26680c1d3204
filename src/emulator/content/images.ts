import { createHash } from 'node:crypto';
import { decodedImageProblem } from '../../core/input/images.js';
import { base64Payload } from '../../schemas/content.js';
import type { FieldPath, FieldProblem } from '../../schemas/issues.js';

/** Whether submitted images are images of a format the service accepts, and their digests for the reference sets. */

export interface SubmittedImage {
  /** Where the image sits in the request, for error messages. */
  path: FieldPath;
  /** Base64, raw or as a data URI. */
  data: string;
}

/**
 * Decodes every image and returns the SHA-256 digests of their bytes (what reference sets hold),
 * or lists each image that is not PNG, JPEG, GIF or WebP bytes, or not a whole one.
 */
export function digestImages(images: readonly SubmittedImage[]): { digests: string[]; problems: FieldProblem[] } {
  const digests: string[] = [];
  const problems: FieldProblem[] = [];
  for (const image of images) {
    const bytes = Buffer.from(base64Payload(image.data), 'base64');
    const problem = decodedImageProblem(bytes);
    if (problem === undefined) digests.push(sha256Hex(bytes));
    else problems.push({ path: image.path, message: problem });
  }
  return { digests, problems };
}

function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
