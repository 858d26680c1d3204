// What bin/csafe answers before it loads the bundle, from one small CommonJS script
// (dist/bundle/quick.cjs): `--version`, and a command's --help into a pipe or a file, as made
// when csafe was built; compiling the bundle and building commander's program cost more than the
// answer itself. Any other command line, the bundle runs (src/cached-bundle.ts).
import { readFileSync } from 'node:fs';

export { asksForVersion, versionLine } from './version.js';
export { runBundle } from './cached-bundle.js';

/**
 * dist/bundle/help.json, written by scripts/bundle.mjs: every command's --help as main() prints
 * it where stdout is not a terminal and COLUMNS is unset (HELP_WIDTH wide), by the words that
 * name the command ('' for csafe itself, 'data add' …).
 */
export type HelpTexts = Record<string, string>;

/** The words of the command a command line asks the --help of, and nothing more (`classify --help`, `data add -h`); else undefined. */
export function helpAskedFor(args: readonly string[]): string | undefined {
  const last = args.at(-1);
  if (last !== '--help' && last !== '-h') return undefined;
  const words = args.slice(0, -1);
  return words.every((word) => /^[a-z][a-z-]*$/.test(word)) ? words.join(' ') : undefined;
}

/**
 * The --help the command line asks for, as made when csafe was built, where it is what main()
 * would print: stdout not a terminal, and no COLUMNS to fit. Undefined otherwise (a terminal's
 * width, an unknown command, a build without help.json), for main() to answer.
 */
export function prebuiltHelp(args: readonly string[], env: NodeJS.ProcessEnv, stdoutIsTTY: boolean, texts = helpTexts): string | undefined {
  if (stdoutIsTTY || env.COLUMNS !== undefined) return undefined;
  const words = helpAskedFor(args);
  if (words === undefined) return undefined;
  const known = texts();
  return known !== undefined && Object.hasOwn(known, words) ? known[words] : undefined;
}

function helpTexts(): HelpTexts | undefined {
  try {
    return JSON.parse(readFileSync(new URL('./help.json', import.meta.url), 'utf8')) as HelpTexts;
  } catch {
    // Run from tsc's output (the tests), or a build that wrote none: main() answers.
    return undefined;
  }
}
