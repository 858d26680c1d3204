import { GLOBAL_FLAGS_WITH_VALUE } from '../core/cli/global-flags.js';
import { globalFlagLength, globalFlagsIn } from '../core/cli/command-line.js';
import { UsageError } from '../core/errors.js';
import { longFlag } from '../core/cli/flags.js';
import { isGroup, type GroupDecl, type TreeNode } from './declaration.js';

// The command lines that stand for another, as gh reads them: `csafe` alone and a group alone
// (`csafe data`) are their help, on stdout with exit 0; `csafe help <command…>` is
// `csafe <command…> --help`, at any depth; `csafe --version` is `csafe version`.

const HELP_FLAGS = ['-h', '--help'];
const VERSION_FLAGS = ['-V', '--version'];

/**
 * The command line a shortcut stands for; any other comes back as it is, and so does one that
 * commander must answer itself (a global flag missing its value, `--`). An unknown command after
 * `help` is a usage error.
 */
export function expandShortcuts(argv: readonly string[], tree: readonly TreeNode[]): string[] {
  if (argv.includes('--') || GLOBAL_FLAGS_WITH_VALUE.has(argv.at(-1) ?? '')) return [...argv];
  const { flags, words } = splitCommandLine(argv);
  const asksHelp = flags.some((arg) => HELP_FLAGS.includes(arg));
  if (words.length === 0) {
    if (!asksHelp && flags.some((arg) => VERSION_FLAGS.includes(arg))) return [...flags.filter((arg) => !VERSION_FLAGS.includes(arg)), 'version'];
    // A flag no command has (`csafe --verison`) is commander's to refuse (exit 2), not help that exits 0.
    return asksHelp || hasForeignFlag(argv) ? [...argv] : [...argv, '--help'];
  }
  const at = argv.indexOf(words[0]!);
  if (words[0] === 'help') {
    // The command named is the words after `help` up to a flag of its own; `csafe help help` is csafe's own help.
    return helpOf(leadingWords(argv.slice(at + 1)).filter((word, index) => !(index === 0 && word === 'help')), argv, tree);
  }
  const node = tree.find((candidate) => candidate.name === words[0]);
  if (node === undefined || !isGroup(node) || asksHelp) return [...argv];
  const after = argv.slice(at + 1);
  const verbs = leadingWords(after);
  // `csafe data help add` is `csafe help data add`: commander's own help verb would print it and exit 2.
  if (verbs[0] === 'help') return helpOf([node.name, ...verbs.slice(1)], argv, tree);
  // A verb after a flag of its own (`csafe events --dry-run send f.jsonl`) is still given: commander
  // refuses the flag (exit 2), where help would exit 0 having sent nothing.
  const verbGiven = verbs.length > 0 || after.some((word) => node.commands.some((verb) => verb.name === word));
  // A flag of one of its verbs with the verb left out (`csafe emulator --port 0`) is the group's help;
  // a flag none of them has (`csafe data --nosuch`) is commander's to refuse, as for csafe alone.
  return verbGiven || hasForeignFlag(after, verbFlags(node)) ? [...argv] : [...argv, '--help'];
}

/** The command line that prints the help of the command `named` (its words), keeping the global flags of `argv`; an unknown command is a usage error. */
function helpOf(named: readonly string[], argv: readonly string[], tree: readonly TreeNode[]): string[] {
  refuseUnknown(named, tree);
  return [...globalFlagsIn(argv), ...named, '--help'];
}

/** Every spelling (`-o`, `--output`, `--no-color`) of the flags of a group's verbs. */
const verbFlags = (group: GroupDecl): Set<string> =>
  new Set(group.commands.flatMap((verb) => Object.entries(verb.flags ?? {}).flatMap(([key, flag]) => ['short' in flag && flag.short !== undefined ? [flag.short] : [], longFlag(key, flag)].flat())));

/** Whether a flag is given that is none of the global ones, nor help or version, nor one of `known`. */
function hasForeignFlag(argv: readonly string[], known: ReadonlySet<string> = new Set()): boolean {
  for (let i = 0; i < argv.length; ) {
    const arg = argv[i]!;
    const length = globalFlagLength(argv, i);
    const isKnown = HELP_FLAGS.includes(arg) || VERSION_FLAGS.includes(arg) || known.has(arg.split('=')[0]!);
    if (length === 0 && arg.startsWith('-') && !isKnown) return true;
    i += Math.max(length, 1);
  }
  return false;
}

/** The words at the start of `argv`, global flags (and their values) passed over, up to any other flag. */
function leadingWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; ) {
    const arg = argv[i]!;
    const length = globalFlagLength(argv, i);
    if (length === 0 && arg.startsWith('-')) break;
    if (length === 0) words.push(arg);
    i += Math.max(length, 1);
  }
  return words;
}

/** The words of a command line (command, verb, arguments) apart from its flags, a global flag's value kept with its flag. */
function splitCommandLine(argv: readonly string[]): { flags: string[]; words: string[] } {
  const flags: string[] = [];
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (GLOBAL_FLAGS_WITH_VALUE.has(arg)) flags.push(arg, ...argv.slice(i + 1, ++i + 1));
    else (arg.startsWith('-') ? flags : words).push(arg);
  }
  return { flags, words };
}

/** `csafe help nosuch` or `csafe help data nosuch`: named as the words given, with where to find the commands that exist. */
function refuseUnknown(words: readonly string[], tree: readonly TreeNode[]): void {
  let nodes = tree;
  for (const [depth, word] of words.entries()) {
    const node = nodes.find((candidate) => candidate.name === word);
    if (node === undefined) {
      const parent = words.slice(0, depth);
      throw new UsageError(`unknown command "${words.slice(0, depth + 1).join(' ')}"`, { hint: `\`csafe ${[...parent, '--help'].join(' ')}\` lists the commands` });
    }
    if (!isGroup(node)) {
      if (depth < words.length - 1) throw new UsageError(`unknown command "${words.join(' ')}": ${words.slice(0, depth + 1).join(' ')} has no subcommands`);
      return;
    }
    nodes = node.commands;
  }
}
