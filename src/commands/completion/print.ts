import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../core/errors.js';
import { embeddedFile } from '../../embedded.js';
import { positional, type Action } from '../app.js';
import { SCRIPT_FILES, SHELLS, type Shell } from './shells.js';

/**
 * The directory of csafe's package.json, above this module wherever the build put it (dist/bundle,
 * or tsc's dist/src/...): the completion scripts ship beside it, in completions/.
 */
function packageRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'completions'))) return dir;
    if (dirname(dir) === dir) throw new Error('csafe\'s completions/ folder is not beside its package.json');
  }
}

const isShell = (name: string): name is Shell => (SHELLS as readonly string[]).includes(name);

/** The action of `csafe completion`: the script as generated into completions/ (npm run gen), or as the single executable carries it. */
export const printCompletion: Action = async (ctx, command) => {
  const [shell] = positional(command) as [string];
  if (!isShell(shell)) throw new UsageError(`<shell>: expected one of ${SHELLS.join(', ')}, got "${shell}"`);
  const file = SCRIPT_FILES[shell];
  await ctx.io.out(embeddedFile(file) ?? readFileSync(join(packageRoot(), file), 'utf8'));
};
