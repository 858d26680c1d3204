import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { InputError } from '../../core/errors.js';
import { detectImageType, IMAGE_EXTENSION, IMAGE_FORMATS, imageDamage } from '../../core/input/images.js';
import { decodeText, readBoundedInput } from '../../core/input/whole-file.js';
import { CONTENT_LIMITS, type ContentPart } from '../../schemas/content.js';
import { flagOfField } from '../../core/cli/flags.js';
import type { ClassifyFlags } from './options.js';
import { formatPath, type FieldProblem } from '../../schemas/issues.js';

/** A content part and where it came from, so a problem with it can name the file. */
export interface SourcedPart {
  origin: string;
  part: ContentPart;
}

/** Text files become text parts and images (told by magic bytes) base64 image parts, keyed by file name. */
export async function partsFromFiles(paths: readonly string[], stdin: Readable, signal?: AbortSignal): Promise<SourcedPart[]> {
  const parts: SourcedPart[] = [];
  for (const path of paths) {
    const origin = path === '-' ? 'stdin' : path;
    const bytes = await readBoundedInput(path, stdin, CONTENT_LIMITS.requestBytes, signal);
    const key = path === '-' ? 'stdin' : basename(path);
    const imageType = detectImageType(bytes);
    if (imageType) {
      const damage = imageDamage(bytes, imageType);
      if (damage !== undefined) throw new InputError(`${origin}: ${damage}; nothing was sent`);
      parts.push({ origin, part: { type: 'image', source: { type: 'base64', data: bytes.toString('base64') }, key } });
      continue;
    }
    // A file named as an image that holds none is a mistake, not text to classify in its place.
    if (IMAGE_EXTENSION.test(path)) throw new InputError(`${origin}: named as an image but holds no ${IMAGE_FORMATS} image; nothing was sent`);
    const text = decodeText(bytes);
    if (text === undefined) {
      throw new InputError(`${origin}: neither UTF-8 text nor a ${IMAGE_FORMATS} image`);
    }
    refuseBlankText(origin, text, `text or a ${IMAGE_FORMATS} image`);
    parts.push({ origin, part: { type: 'text', text, key } });
  }
  return parts;
}

export function partsFromTexts(texts: readonly string[]): SourcedPart[] {
  for (const text of texts) refuseBlankText('--text', text, 'the text to classify');
  return texts.map((text) => ({ origin: '--text', part: { type: 'text', text } }));
}

/** Empty text, or only white space, gives the classifier nothing to judge: most likely the wrong file or an unset variable. */
function refuseBlankText(origin: string, text: string, expected: string): void {
  if (text.trim() !== '') return;
  throw new InputError(`${origin}: ${text === '' ? 'is empty' : 'holds only white space'}, expected ${expected}; nothing was sent`);
}

/** The option a top-level request field comes from, for problems that concern no file. */
const OPTION_OF_FIELD: Record<string, keyof ClassifyFlags> = { user_id: 'userId', content_id: 'contentId', metadata: 'metadata' };

/**
 * `photo.png: content[2].source.data: image is … bytes`: the file first, then the field. A
 * problem with the whole request names every input; one with a top-level field names its flag.
 */
export function describeForFiles(problem: FieldProblem, parts: readonly SourcedPart[]): string {
  const [first, index] = problem.path;
  const origins = (only?: ContentPart['type']) => parts.filter((p) => only === undefined || p.part.type === only).map((p) => p.origin).join(', ');
  if (problem.path.length === 0) return `${problem.message} (${origins()})`;
  if (first === 'content' && problem.path.length === 1) return `${problem.message} (${origins('image')})`;
  if (first !== 'content') {
    const flag = flagOfField(OPTION_OF_FIELD, first!);
    // The flag is the field: `--metadata: is 9018 bytes …`, not `--metadata: metadata: …`.
    if (flag !== undefined && problem.path.length === 1) return `${flag}: ${problem.message}`;
    return `${flag ?? 'request'}: ${formatPath(problem.path)}: ${problem.message}`;
  }
  const origin = typeof index === 'number' ? parts[index]?.origin : undefined;
  return `${origin ?? 'request'}: ${formatPath(problem.path)}: ${problem.message}`;
}
