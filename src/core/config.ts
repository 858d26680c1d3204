import { chmodSync, mkdirSync } from 'node:fs';
import Conf from 'conf';
import { z } from 'zod';
import { CorruptConfigError, UsageError } from './errors.js';
import { syntaxErrorOffset } from './json-position.js';
import { CONFIG_KEYS, DEFAULT_PROFILE, RETIRED_SETTINGS, type ConfigKey, type RetiredConfigKey } from './settings.js';
import { shellWord } from './shell.js';

// Kept in core/settings (no conf, no zod) so that `config --help` can name them.
export { CONFIG_KEYS, type ConfigKey } from './settings.js';
import { formatPath } from '../schemas/issues.js';

export type Profile = Partial<Record<ConfigKey | RetiredConfigKey, string>>;

interface StoreShape {
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
 * conf's reader, made to refuse a file that is not JSON or not profiles with an error naming it.
 * conf calls it with itself as `this`, the file's path already set; nothing is written back.
 */
function readStore(this: { path: string }, text: string): StoreShape {
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

const isRetired = (key: string): key is RetiredConfigKey => Object.hasOwn(RETIRED_SETTINGS, key);

/** `value`: what `config set` was given, to show the command that stores it under a retired key's new name. */
export function assertConfigKey(key: string, value = '<value>'): ConfigKey {
  if (isRetired(key)) {
    const { now, meaning } = RETIRED_SETTINGS[key];
    throw new UsageError(`config key "${key}" is now "${now.key}" (${meaning}): csafe config set ${now.key} ${value}`);
  }
  if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
    throw new UsageError(`unknown config key "${key}": expected one of ${CONFIG_KEYS.join(', ')}`);
  }
  return key as ConfigKey;
}

/** A key `config unset` may remove: a current one, or one an older csafe wrote. */
export function assertRemovableConfigKey(key: string): ConfigKey | RetiredConfigKey {
  return isRetired(key) ? key : assertConfigKey(key);
}

/** Profiles in one JSON file (mode 0600) under CSAFE_CONFIG_DIR or the platform's config directory. */
export class ConfigStore {
  private conf?: Conf<StoreShape>;

  constructor(private readonly dir?: string) {}

  get path(): string {
    return this.store().path;
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

  set(profile: string, key: ConfigKey, value: string): void {
    this.update(profile, (p) => ({ ...p, [key]: value }));
  }

  unset(profile: string, key: ConfigKey | RetiredConfigKey): void {
    this.update(profile, (p) => {
      const { [key]: _removed, ...rest } = p;
      return rest;
    });
  }

  private update(profile: string, change: (p: Profile) => Profile): void {
    const store = this.store();
    store.set('profiles', { ...this.profiles(), [profile]: change(this.profile(profile)) });
    // conf creates the file with configFileMode; an older file written by hand may be wider.
    chmodSync(store.path, 0o600);
  }

  /** No defaults are given to conf, which would write them to a new file: reading creates nothing. */
  private profiles(): Record<string, Profile> {
    return this.store().get('profiles') ?? {};
  }

  private store(): Conf<StoreShape> {
    if (this.conf === undefined) {
      if (this.dir !== undefined) mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.conf = new Conf<StoreShape>({
        projectName: 'csafe',
        projectSuffix: '',
        configName: 'config',
        cwd: this.dir,
        configFileMode: 0o600,
        deserialize: readStore as (text: string) => StoreShape,
      });
    }
    return this.conf;
  }
}
