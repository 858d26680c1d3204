import { basename } from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { InputError, UsageError } from '../../core/errors.js';
import { decodeText, detectImageType, readBoundedInput } from '../../core/input-files.js';
import { fileError } from '../../core/readers.js';
import { CONTENT_LIMITS, type ContentPart } from '../../schemas/content.js';
import { formatPath, type FieldProblem } from '../../schemas/issues.js';

/** A content part and where it came from, so a problem with it can name the file. */
export interface SourcedPart {
  origin: string;
  part: ContentPart;
}

/** Text files become text parts and images (told by magic bytes) base64 image parts, keyed by file name. */
export async function partsFromFiles(paths: readonly string[], stdin: Readable): Promise<SourcedPart[]> {
  const parts: SourcedPart[] = [];
  for (const path of paths) {
    const origin = path === '-' ? 'stdin' : path;
    const bytes = await readBoundedInput(path, stdin, CONTENT_LIMITS.requestBytes);
    const key = path === '-' ? 'stdin' : basename(path);
    const imageType = detectImageType(bytes);
    if (imageType) {
      parts.push({ origin, part: { type: 'image', source: { type: 'base64', data: bytes.toString('base64') }, key } });
      continue;
    }
    const text = decodeText(bytes);
    if (text === undefined) {
      throw new InputError(`${origin}: neither UTF-8 text nor a PNG, JPEG, GIF or WebP image`);
    }
    parts.push({ origin, part: { type: 'text', text, key } });
  }
  return parts;
}

export const partsFromTexts = (texts: readonly string[]): SourcedPart[] =>
  texts.map((text) => ({ origin: '--text', part: { type: 'text', text } }));

/** `--metadata k=v` (repeatable) and `--metadata @file.json`, merged in order. */
export async function parseMetadata(specs: readonly string[]): Promise<Record<string, unknown> | undefined> {
  if (specs.length === 0) return undefined;
  const metadata: Record<string, unknown> = {};
  for (const spec of specs) {
    if (spec.startsWith('@')) {
      Object.assign(metadata, await readMetadataFile(spec.slice(1)));
      continue;
    }
    const equals = spec.indexOf('=');
    if (equals <= 0) throw new UsageError(`--metadata: expected key=value or @file.json, got "${spec}"`);
    metadata[spec.slice(0, equals)] = spec.slice(equals + 1);
  }
  return metadata;
}

async function readMetadataFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw fileError(path, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${path}: invalid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InputError(`${path}: expected a JSON object of metadata`);
  return value as Record<string, unknown>;
}

/** `photo.png: content[2].source.data: image is … bytes` — the file first, then the field. */
export function describeForFiles(problem: FieldProblem, parts: readonly SourcedPart[]): string {
  const [first, index] = problem.path;
  const origin = first === 'content' && typeof index === 'number' ? parts[index]?.origin : undefined;
  if (first === 'content' && problem.path.length === 1) {
    const images = parts.filter((p) => p.part.type === 'image').map((p) => p.origin);
    return `${problem.message} (${images.join(', ')})`;
  }
  return `${origin ?? (problem.path.length === 0 ? 'request' : '--flags')}: ${formatPath(problem.path)}: ${problem.message}`;
}
