import { flagSpec, longFlag } from './flags.js';
import { GLOBAL_FLAGS, GLOBAL_FLAGS_WITH_VALUE, GLOBAL_SWITCHES } from './global-flags.js';

/** A word a shell reads back unchanged: as is when it is plain, else in single quotes. */
export const shellWord = (word: string) => (/^[\w.@%+=:,/-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** Flags whose value must never be printed back: it would land in the terminal's scrollback and the shell's history. */
const SECRET_FLAGS = Object.entries(GLOBAL_FLAGS).flatMap(([key, flag]) => ('secret' in flag && flag.secret ? [longFlag(key, flag)] : []));

/**
 * `csafe …` with these arguments, quoted so a shell runs exactly them: the command a run prints
 * for the user to continue with. A secret given by flag is left out (CSAFE_API_KEY or the stored
 * key serve the next run).
 */
export function csafeCommandLine(argv: readonly string[]): string {
  const kept = SECRET_FLAGS.reduce(withoutFlag, argv);
  return ['csafe', ...kept].map(shellWord).join(' ');
}

/** Where the command starts: the index of the first argument that is not a global flag or its value. */
export function commandIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (GLOBAL_FLAGS_WITH_VALUE.has(arg)) i++;
    else if (!arg.startsWith('-')) return i;
  }
  return argv.length;
}

/** The arguments with `flag value` in place of any earlier value of that flag (as `--flag v` or `--flag=v`), or added at the end. */
export function withFlag(argv: readonly string[], flag: string, value: string): string[] {
  return [...withoutFlag(argv, flag), flag, value];
}

/** The arguments without `flag` and its value (given as `--flag v` or `--flag=v`). */
function withoutFlag(argv: readonly string[], flag: string): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === flag) i++;
    else if (!arg.startsWith(`${flag}=`)) kept.push(arg);
  }
  return kept;
}

/**
 * `csafe`, the global flags `argv` gives (wherever in it, as commander takes them; a secret one
 * left out), then `command` (its words quoted already): a command printed for the user to run
 * next goes to the service, profile and key file this run used, not to whatever the defaults name.
 * `output: false` leaves out the flags that choose how a result is written, for a command that
 * writes another result than this one (`batch download` after `batch create --json`).
 */
export function sameServiceCommand(argv: readonly string[], command: string, { output = true }: { output?: boolean } = {}): string {
  const flags = globalFlagsIn(argv, { secrets: false, output });
  return ['csafe', ...flags.map(shellWord), command].join(' ');
}

/**
 * How many arguments the global flag at `argv[i]` takes up: 2 with its value in the next one
 * (`--profile x`), 1 for a switch or a value joined to its flag (`--json`, `-qv`, `--profile=x`,
 * `-ojson`), 0 when it is no global flag.
 */
export function globalFlagLength(argv: readonly string[], i: number): number {
  const arg = argv[i]!;
  if (GLOBAL_FLAGS_WITH_VALUE.has(arg)) return 2;
  if (GLOBAL_SWITCHES.has(arg)) return 1;
  if (/^-[a-zA-Z]{2,}$/.test(arg) && [...arg.slice(1)].every((letter) => GLOBAL_SWITCHES.has(`-${letter}`))) return 1;
  const name = flagName(arg);
  return name !== arg && GLOBAL_FLAGS_WITH_VALUE.has(name) ? 1 : 0;
}

/**
 * The global flags of a command line, each with its value, wherever they stand (up to `--`);
 * `secrets: false` leaves out those whose value must never be printed back, `output: false` those
 * that choose how a result is written.
 */
export function globalFlagsIn(argv: readonly string[], { secrets = true, output = true }: { secrets?: boolean; output?: boolean } = {}): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length && argv[i] !== '--'; ) {
    const length = globalFlagLength(argv, i);
    const name = flagName(argv[i]!);
    const left = (!secrets && SECRET_FLAGS.includes(name)) || (!output && OUTPUT_FLAGS.has(name));
    if (length > 0 && !left) kept.push(...argv.slice(i, i + length));
    i += Math.max(length, 1);
  }
  return kept;
}

/** The flags that choose how a result is written, by every name they have (`-o`, `--output`, `--json`). */
const OUTPUT_FLAGS: ReadonlySet<string> = new Set(
  Object.entries(GLOBAL_FLAGS).flatMap(([key, flag]) => ('output' in flag && flag.output ? flagSpec(key, flag).split(/[ ,]+/).filter((name) => name.startsWith('-')) : [])),
);

/** The flag an argument gives: `--output` of `--output=json`, `-o` of `-ojson` (or of `-o`). */
const flagName = (arg: string) => (arg.startsWith('--') ? arg.split('=')[0]! : arg.slice(0, 2));

/**
 * The arguments with the command's positional argument number `index` (`stream` is 0) replaced by
 * `value`, or `value` added when there is none, and the `dropped` flags left out with their values.
 * `withValue` names the flags, global or the command's own, whose value is the next argument.
 */
export function withPositional(argv: readonly string[], index: number, value: string, flags: { withValue: ReadonlySet<string>; dropped: ReadonlySet<string> }): string[] {
  const kept: string[] = [];
  let position = 0;
  let replaced = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split('=')[0]!;
    const takesNext = arg === name && (flags.withValue.has(arg) || GLOBAL_FLAGS_WITH_VALUE.has(arg));
    if (arg.startsWith('-') && arg !== '-') {
      if (!flags.dropped.has(name)) kept.push(...argv.slice(i, takesNext ? i + 2 : i + 1));
      if (takesNext) i++;
    } else if (position++ === index) {
      kept.push(value);
      replaced = true;
    } else kept.push(arg);
  }
  return replaced ? kept : [...kept, value];
}
