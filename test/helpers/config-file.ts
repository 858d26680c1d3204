import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Profile } from '../../src/core/config/store.js';
import type { CommandTest } from './context.js';

/** The config file of a command test: CSAFE_CONFIG_DIR is `config` under its directory. */
export const configFile = (run: CommandTest) => join(run.dir, 'config', 'config.json');

/** Writes the profiles as a user's hand would: mode 0644, so a test can see csafe narrow it. */
export function writeProfiles(run: CommandTest, profiles: Record<string, Profile>): void {
  mkdirSync(dirname(configFile(run)), { recursive: true });
  writeFileSync(configFile(run), JSON.stringify({ profiles }), { mode: 0o644 });
}

/** The file's profiles and permission bits as they are on disk; undefined when there is no file. */
export function storedConfig(run: CommandTest): { profiles: Record<string, Profile>; mode: number } | undefined {
  const path = configFile(run);
  if (!existsSync(path)) return undefined;
  const { profiles } = JSON.parse(readFileSync(path, 'utf8')) as { profiles: Record<string, Profile> };
  return { profiles, mode: statSync(path).mode & 0o777 };
}
