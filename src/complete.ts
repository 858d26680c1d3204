import { readFileSync } from 'node:fs';
import { configFilePath } from './core/config/paths.js';

/**
 * What `csafe __complete WHAT` prints for the shell completions, its own module so that the
 * launcher answers without loading the rest: `profiles`, the names of the config file's profiles.
 * Never fails: a completion that cannot read the file offers nothing.
 */
export function completionWords([what]: readonly string[], env: NodeJS.ProcessEnv): string[] {
  if (what !== 'profiles') return [];
  try {
    const { profiles } = JSON.parse(readFileSync(configFilePath(env.CSAFE_CONFIG_DIR || undefined, env), 'utf8')) as { profiles?: unknown };
    // A file that does not hold profiles offers none (csafe itself names what is wrong with it); a name with a line break would read as two.
    if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) return [];
    return Object.keys(profiles).filter((name) => !name.includes('\n')).sort();
  } catch {
    return [];
  }
}
