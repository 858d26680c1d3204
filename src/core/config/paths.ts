import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

// Where csafe's config file is: small and free of dependencies, so that the shell completions'
// `csafe __complete profiles` reads it without loading the rest.

/**
 * Where conf keeps csafe's profiles when CSAFE_CONFIG_DIR does not say (env-paths' `config` for
 * "csafe" with no suffix); test/core/config/store.test.ts checks that conf agrees.
 */
function platformConfigDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'csafe');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'csafe', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'csafe');
}

/** The config file: config.json in `dir` (CSAFE_CONFIG_DIR) or the platform's config directory. */
export const configFilePath = (dir: string | undefined, env: NodeJS.ProcessEnv = process.env, platform = process.platform) =>
  resolve(dir ?? platformConfigDir(env, platform), 'config.json');
