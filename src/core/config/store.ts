import { chmodSync } from 'node:fs';
import Conf from 'conf';
import { CsafeError, UsageError } from '../errors.js';
import { remedyInPlace, writeErrorReason } from '../files/write-errors.js';
import { acquireFileLockWaiting, type FileLock } from '../files/file-lock.js';
import { ProfileFile, readStore, type Profile, type StoreShape } from './profile-file.js';
import { CONFIG_KEYS, type ConfigKey } from './keys.js';
import { RETIRED_SETTINGS, type RetiredConfigKey } from './settings.js';

// Kept in core/config/keys (no conf, no zod) so that `config --help` can name them.
export { CONFIG_KEYS, type ConfigKey } from './keys.js';
export type { Profile } from './profile-file.js';

const isRetired = (key: string): key is RetiredConfigKey => Object.hasOwn(RETIRED_SETTINGS, key);

/** How long a change of the config file waits for another run's: each holds it for a few milliseconds. */
const CHANGE_WAIT_MS = 10_000;

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

/**
 * Runs conf's write with SNAP unset: where it is set, conf writes the file in place rather than
 * through a file renamed over it, and VS Code installed as a snap leaves it set in its terminals.
 * Written in place, the file was torn for a moment: a run reading it then found the config corrupt,
 * and a run killed then left it so. The write is synchronous: nothing else runs while SNAP is unset.
 */
function writtenWhole(write: () => void): void {
  const snap = process.env.SNAP;
  delete process.env.SNAP;
  try {
    write();
  } finally {
    if (snap !== undefined) process.env.SNAP = snap;
  }
}

/** The profiles file (core/config/profile-file.ts) and its writing, through conf. */
export class ConfigStore extends ProfileFile {
  private conf?: Conf<StoreShape>;

  set(profile: string, key: ConfigKey, value: string): Promise<void> {
    return this.update(profile, (p) => ({ ...p, [key]: value }));
  }

  unset(profile: string, key: ConfigKey | RetiredConfigKey): Promise<void> {
    return this.update(profile, (p) => {
      const { [key]: _removed, ...rest } = p;
      return rest;
    });
  }

  /**
   * Reads the profiles, changes one and writes them all back, holding the file's lock throughout:
   * runs that change it at once (`config set` for several profiles from a script) would otherwise
   * each write back what it read, and all but the last change would be lost.
   */
  private async update(profile: string, change: (p: Profile) => Profile): Promise<void> {
    // Read by ProfileFile first: it refuses a file too big or not a regular file, which conf would read whole.
    this.assertReadable();
    const lock = await this.lock();
    try {
      const profiles = this.profiles();
      const store = this.store();
      writtenWhole(() => store.set('profiles', { ...profiles, [profile]: change({ ...profiles[profile] }) }));
      // conf creates the file with configFileMode; an older file written by hand may be wider.
      chmodSync(store.path, 0o600);
    } catch (error) {
      throw this.writeFailure(error);
    } finally {
      await lock.release();
    }
  }

  /** The config file's lock, beside it in its directory (made first, private): another run's change is waited for. */
  private async lock(): Promise<FileLock> {
    try {
      this.createDirectory();
      return await acquireFileLockWaiting(this.path, Date.now, CHANGE_WAIT_MS, 'set CSAFE_CONFIG_DIR to another directory');
    } catch (error) {
      throw this.writeFailure(error);
    }
  }

  /**
   * The system's refusal told of the config file: conf's own message names the temporary file it
   * writes beside it, or the directory it creates, and says nothing of what to do.
   */
  private writeFailure(error: unknown): unknown {
    if (error instanceof CsafeError || (error as NodeJS.ErrnoException).code === undefined) return error;
    const reason = writeErrorReason(error);
    return new CsafeError(`config file ${this.path} could not be written: ${reason}`, {
      hint: `${remedyInPlace(reason)}, or set CSAFE_CONFIG_DIR to a directory this user may write to`,
      cause: error,
    });
  }

  /** Only for writing: conf creates the directory and reads the file when constructed. No defaults, which it would write to a new file. */
  private store(): Conf<StoreShape> {
    if (this.conf === undefined) {
      this.createDirectory();
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
