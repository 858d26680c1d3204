import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import split2 from 'split2';
import { InputError } from './errors.js';
import { jsonErrorOffset } from './json-position.js';

/** A named byte stream: a file, or stdin when the path is `-`. */
export interface InputSource {
  /** How messages name it: the path as given, or `stdin`. */
  name: string;
  open(): Readable;
}

export function inputSource(path: string, stdin: Readable): InputSource {
  if (path === '-') return { name: 'stdin', open: () => stdin };
  return { name: path, open: () => createReadStream(path) };
}

export const displayName = (source: InputSource) => (source.name === 'stdin' ? 'stdin' : basename(source.name));

/** Longest line we hold in memory; a longer one is an input error, never an out-of-memory. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

export interface SourceLine {
  line: number;
  text: string;
}

/** Explains a file-system error the way a user needs it: which file and what is wrong. */
export function fileError(name: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason =
    code === 'ENOENT' ? 'no such file' :
    code === 'EISDIR' ? 'is a directory, expected a file' :
    code === 'EACCES' ? 'permission denied' :
    (error as Error)?.message ?? String(error);
  return new InputError(`${name}: ${reason}`);
}

/**
 * Lines of a source with their 1-based numbers, streamed (split2) with flat memory. A UTF-8 BOM
 * and CRLF line ends are tolerated; blank lines keep their numbers but are not yielded.
 */
export async function* readLines(source: InputSource, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<SourceLine> {
  let numbered = 0;
  const splitter = split2((text: string) => {
    numbered++;
    return { line: numbered, text: numbered === 1 ? text.replace(/^\uFEFF/, '') : text };
  }, { maxLength: maxLineBytes });
  const stream = source.open();
  stream.on('error', (error) => splitter.destroy(fileError(source.name, error)));
  stream.pipe(splitter);
  try {
    for await (const record of splitter as AsyncIterable<SourceLine>) {
      if (Buffer.byteLength(record.text) > maxLineBytes) throw tooLong(source, record.line, maxLineBytes);
      if (record.text.trim() !== '') yield record;
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    if ((error as Error).message === 'maximum buffer reached') throw tooLong(source, numbered + 1, maxLineBytes);
    throw fileError(source.name, error);
  } finally {
    if (source.name !== 'stdin') stream.destroy();
  }
}

function tooLong(source: InputSource, line: number, max: number): InputError {
  return new InputError(`${source.name}:${line}: line is longer than ${Math.round(max / 1024 / 1024)} MB`, {
    hint: 'each record must be one JSON object on its own line',
  });
}

export type JsonLine = { line: number; value: unknown } | { line: number; text: string; error: string };

/** JSON Lines: each line parsed on its own; a bad line is reported with its column, not thrown. */
export async function* readJsonLines(source: InputSource): AsyncGenerator<JsonLine> {
  let any = false;
  for await (const { line, text } of readLines(source)) {
    any = true;
    try {
      yield { line, value: JSON.parse(text) };
    } catch (error) {
      yield { line, text, error: describeJsonError(error as Error, text) };
    }
  }
  if (!any) throw new InputError(`${source.name}: is empty, expected at least one JSON record`);
}

/** `invalid JSON at column 12: Unexpected token }`: the column is what a user needs to find it. */
export function describeJsonError(error: Error, text: string): string {
  const offset = jsonErrorOffset(text);
  const reason = error.message.replace(/ in JSON at position \d+.*$/s, '').replace(/, ".*" is not valid JSON$/s, '');
  return offset !== undefined ? `invalid JSON at column ${offset + 1}: ${reason}` : `invalid JSON: ${reason}`;
}
