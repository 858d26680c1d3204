import type { Readable } from 'node:stream';
import { InputError, UsageError } from '../errors.js';
import { readBoundedInput } from './whole-file.js';
import { parseDocument } from '../json/nesting.js';
import { setOwnField } from '../json/own-field.js';

/** Where a flag's JSON comes from and how much of it may be read. */
export interface JsonFlagInput {
  stdin: Readable;
  /** The most a file (or stdin, `@-`) may hold: what one request can carry. */
  maxBytes: number;
  signal?: AbortSignal | undefined;
}

/**
 * A flag that takes a JSON object inline or from `@FILE` (`@-`: stdin), as `--content` does. Any
 * problem is one line naming the flag and, for a file, where its JSON breaks (file:line and column).
 * A file is read like any input file: bounded, so `@/dev/zero` fails fast, and a FIFO still answers Ctrl-C.
 */
export async function jsonObjectFlag(flag: string, spec: string, input: JsonFlagInput, what = 'a JSON object'): Promise<Record<string, unknown>> {
  const fromFile = spec.startsWith('@');
  const origin = fromFile ? `${flag}: ${spec.slice(1) === '-' ? 'stdin' : spec.slice(1)}` : flag;
  const text = fromFile ? (await readFlagFile(flag, spec.slice(1), input)).toString('utf8') : spec;
  if (text.trim() === '') throw new InputError(`${origin}: is empty, expected ${what}; nothing was sent`);
  const parsed = parseDocument(text);
  if ('error' in parsed) {
    const where = fromFile ? `${origin}:${parsed.line}` : origin;
    throw new InputError(`${where}: ${parsed.error}`, { hint: fromFile ? undefined : `give ${what} such as '{"text":"hello"}', or @FILE to read it from a file` });
  }
  const { value } = parsed;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError(`${origin}: expected ${what}, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/** `--metadata k=v` (repeatable) and `--metadata @file.json`, merged in order; undefined when none was given. */
export async function parseMetadata(specs: readonly string[], input: JsonFlagInput): Promise<Record<string, unknown> | undefined> {
  if (specs.length === 0) return undefined;
  const metadata: Record<string, unknown> = {};
  for (const spec of specs) {
    if (spec.startsWith('@')) {
      for (const [key, value] of Object.entries(await jsonObjectFlag('--metadata', spec, input, 'a JSON object of metadata'))) setOwnField(metadata, key, value);
      continue;
    }
    const equals = spec.indexOf('=');
    if (equals <= 0) throw new UsageError(`--metadata: expected key=value or @file.json, got "${spec}"`);
    setOwnField(metadata, spec.slice(0, equals), spec.slice(equals + 1));
  }
  return metadata;
}

/** The file of `@FILE`, a read that fails named by its flag as well (`--content: listing.json: no such file`). */
async function readFlagFile(flag: string, path: string, input: JsonFlagInput): Promise<Buffer> {
  if (path === '') throw new UsageError(`${flag}: "@" needs a file name after it: @FILE, or @- for stdin`);
  // Read to its end by an earlier flag, stdin would look empty here: say why instead.
  if (path === '-' && input.stdin.readableEnded) {
    throw new UsageError(`${flag}: @- reads stdin, which an earlier @- has read already; give this one from a file`);
  }
  try {
    return await readBoundedInput(path, input.stdin, input.maxBytes, input.signal);
  } catch (error) {
    if (error instanceof InputError) throw new InputError(`${flag}: ${error.message}`, { hint: error.hint });
    throw error;
  }
}
