import { chmodSync, mkdirSync } from 'node:fs';
import Conf from 'conf';
import { UsageError } from './errors.js';

/** Keys a profile may hold. api_key is set with `csafe auth login`, never echoed back in full. */
export const CONFIG_KEYS = ['api_key', 'base_url', 'user_id', 'output', 'timeout', 'max_retries'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type Profile = Partial<Record<ConfigKey, string>>;

interface StoreShape {
  profiles: Record<string, Profile>;
}

export function assertConfigKey(key: string): ConfigKey {
  if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
    throw new UsageError(`unknown config key "${key}": expected one of ${CONFIG_KEYS.join(', ')}`);
  }
  return key as ConfigKey;
}

/** Profiles in one JSON file (mode 0600) under CSAFE_CONFIG_DIR or the platform's config directory. */
export class ConfigStore {
  private conf?: Conf<StoreShape>;

  constructor(private readonly dir?: string) {}

  get path(): string {
    return this.store().path;
  }

  profile(name: string): Profile {
    return { ...this.store().get('profiles')[name] };
  }

  profileNames(): string[] {
    return Object.keys(this.store().get('profiles'));
  }

  set(profile: string, key: ConfigKey, value: string): void {
    this.update(profile, (p) => ({ ...p, [key]: value }));
  }

  unset(profile: string, key: ConfigKey): void {
    this.update(profile, (p) => {
      const { [key]: _removed, ...rest } = p;
      return rest;
    });
  }

  private update(profile: string, change: (p: Profile) => Profile): void {
    const store = this.store();
    store.set('profiles', { ...store.get('profiles'), [profile]: change(this.profile(profile)) });
    // conf creates the file with configFileMode; an older file written by hand may be wider.
    chmodSync(store.path, 0o600);
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
        defaults: { profiles: {} },
      });
    }
    return this.conf;
  }
}
