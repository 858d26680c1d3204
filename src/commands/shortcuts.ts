import { commandIndex } from '../core/cli/command-line.js';
import { UsageError } from '../core/errors.js';
import { isGroup, type TreeNode } from './declaration.js';

// The command lines that stand for another, as gh reads them: `csafe` alone and a group alone
// (`csafe data`) are their help, on stdout with exit 0; `csafe help <command…>` is
// `csafe <command…> --help`, at any depth; `csafe --version` is `csafe version`.

const HELP_FLAGS = ['-h', '--help'];
const VERSION_FLAGS = ['-V', '--version'];

/** The command line a shortcut stands for; any other comes back as it is. An unknown command after `help` is a usage error. */
export function expandShortcuts(argv: readonly string[], tree: readonly TreeNode[]): string[] {
  const at = commandIndex(argv);
  const asksHelp = argv.some((arg) => HELP_FLAGS.includes(arg));
  if (at === argv.length) {
    if (!asksHelp && argv.some((arg) => VERSION_FLAGS.includes(arg))) return [...argv.filter((arg) => !VERSION_FLAGS.includes(arg)), 'version'];
    return asksHelp ? [...argv] : [...argv, '--help'];
  }
  const rest = argv.slice(at + 1);
  if (argv[at] === 'help') {
    const words = rest.slice(0, firstFlag(rest));
    refuseUnknown(words, tree);
    return [...argv.slice(0, at), ...words, '--help'];
  }
  const node = tree.find((candidate) => candidate.name === argv[at]);
  const verbGiven = firstFlag(rest) > 0;
  return node !== undefined && isGroup(node) && !verbGiven && !asksHelp ? [...argv, '--help'] : [...argv];
}

const firstFlag = (words: readonly string[]) => {
  const index = words.findIndex((word) => word.startsWith('-'));
  return index === -1 ? words.length : index;
};

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
