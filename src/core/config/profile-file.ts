import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';
import { formatPath } from '../../schemas/issues.js';
import { CorruptConfigError, UsageError } from '../errors.js';
import { syntaxErrorOffset } from '../json/position.js';
import { DEFAULT_PROFILE, type Profile } from './settings.js';
import { configFilePath } from './paths.js';
import { shellWord } from '../cli/command-line.js';
import { writeErrorReason } from '../files/write-errors.js';
import { makeDirectorySync } from '../files/make-directory.js';

// Where the profiles file lives, and how it is read and checked: a corrupt file is named with the
// place of its problem, not silently replaced.

export type { Profile } from './settings.js';

export interface StoreShape {
  profiles?: Record<string, Profile>;
}

const storeSchema = z.looseObject(
  {
    profiles: z
      .record(z.string(), z.record(z.string(), z.string({ error: 'expected a string' }), { error: 'expected an object of settings' }), {
        error: 'expected an object of profiles',
      })
      .optional(),
  },
  { error: 'expected a JSON object with "profiles"' },
);

/**
 * The config file's text as profiles; a file that is not JSON or not profiles is refused with an
 * error naming it. conf calls it too (its `deserialize`), with itself as `this`.
 */
export function readStore(this: { path: string }, text: string): StoreShape {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the text around the error, which may be the API key.
    throw new CorruptConfigError(this.path, `is not valid JSON${syntaxErrorPlace(text)}`);
  }
  const checked = storeSchema.safeParse(parsed);
  if (checked.success) return checked.data as StoreShape;
  const issue = checked.error.issues[0]!;
  const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
  throw new CorruptConfigError(this.path, `does not hold csafe profiles: ${where}${issue.message}`);
}

/** ` (line 2, column 39)`: where JSON.parse stopped, without any of the text. */
function syntaxErrorPlace(text: string): string {
  const offset = syntaxErrorOffset(text);
  if (offset === undefined) return '';
  const before = text.slice(0, offset);
  return ` (line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')})`;
}

/**
 * The profiles in the config file (mode 0600, under CSAFE_CONFIG_DIR or the platform's config
 * directory), read as conf reads them but without loading it: conf's import (ajv, semver, 150
 * files) took longer than the rest of a one-request command (start-up time). ConfigStore writes.
 */
export class ProfileFile {
  private readonly file: string;

  constructor(protected readonly dir?: string) {
    this.file = configFilePath(dir);
  }

  get path(): string {
    return this.file;
  }

  profile(name: string): Profile {
    return { ...this.profiles()[name] };
  }

  profileNames(): string[] {
    return Object.keys(this.profiles());
  }

  /** `default` always exists, with or without a file: it is the profile nobody had to name. */
  hasProfile(name: string): boolean {
    return name === DEFAULT_PROFILE || this.profileNames().includes(name);
  }

  /**
   * Refuses a profile the file does not hold: a mistyped name would otherwise read as an empty
   * profile. `from` is where the name came from (--profile or CSAFE_PROFILE).
   */
  requireProfile(name: string, from: string): void {
    if (this.hasProfile(name)) return;
    const known = [...new Set([DEFAULT_PROFILE, ...this.profileNames()])].join(', ');
    const profile = shellWord(name);
    throw new UsageError(`unknown profile "${name}" (from ${from}); the profiles are: ${known}`, {
      hint: `create it with \`csafe --profile ${profile} auth login\` or \`csafe --profile ${profile} config set <key> <value>\``,
    });
  }

  /** Throws CorruptConfigError when the file cannot be read, for a command that will write it to say so before doing anything else. */
  assertReadable(): void {
    this.profiles();
  }

  /** Read afresh each time, as conf does; a missing file is no profiles, and reading creates nothing (a read-only HOME still runs). */
  protected profiles(): Record<string, Profile> {
    return this.read().profiles ?? {};
  }

  /** A private directory for the file about to be written: it will hold the API key. Only writing creates it. */
  protected createDirectory(): void {
    makeDirectorySync(dirname(this.file), 0o700);
  }

  private read(): StoreShape {
    const text = readConfigText(this.file);
    return text === undefined ? {} : readStore.call({ path: this.file }, text);
  }
}

/** Far above any set of profiles: a bigger file is not csafe's, and reading it whole could exhaust memory. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The text of a file of csafe's config directory, or undefined when there is none. A file that is
 * not a regular file (a directory, /dev/zero, a pipe), is over MAX_CONFIG_BYTES, or cannot be
 * opened is a CorruptConfigError, so a command given what it needs by flags and environment still runs.
 */
export function readConfigText(path: string): string | undefined {
  let fd: number;
  try {
    // Non-blocking: opening a named pipe with no writer would otherwise wait forever.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CorruptConfigError(path, `cannot be read: ${openErrorReason(error)}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new CorruptConfigError(path, 'is not a regular file');
    if (stats.size > MAX_CONFIG_BYTES) throw new CorruptConfigError(path, 'is larger than 1 MiB');
    return readAtMost(fd, MAX_CONFIG_BYTES, path).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The file's bytes up to `limit`; one more means it grew past the limit after it was measured. */
function readAtMost(fd: number, limit: number, path: string): Buffer {
  const buffer = Buffer.alloc(limit + 1);
  let length = 0;
  for (;;) {
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    length += read;
    if (read === 0 || length > limit) break;
  }
  if (length > limit) throw new CorruptConfigError(path, 'is larger than 1 MiB');
  return buffer.subarray(0, length);
}

function openErrorReason(error: unknown): string {
  if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return 'a part of its path is not a directory (ENOTDIR)';
  return writeErrorReason(error);
}
