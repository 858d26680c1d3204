// What a command is, as data: its name, help, arguments, flags, examples, the variables it reads
// and how to load its action. Each group and verb is declared once, beside its code
// (src/commands/<group>/index.ts, <verb>-command.ts); commander's program (program.ts), every
// --help and the walk of the tree (shell completions, man pages) are built from the declarations.
// Plain data: `--help` loads these, and none of what an action needs.

import type { Flags } from '../core/cli/flags.js';
import type { Variable } from '../core/cli/help.js';
import type { Action } from './app.js';

/** A positional argument, in commander's notation: `<namespace>` (required), `[file]` (optional), `[files...]` (any number). */
export interface ArgDecl {
  name: string;
  help?: string;
  /** The only words it takes, offered by the shell completions. */
  choices?: readonly string[];
}

/** What a verb's declaration file (`<verb>-command.ts`) declares: all but how to load its action. */
export type VerbDecl<F extends Flags = Flags> = Omit<CommandDecl<F>, 'run'>;

/** A command that runs: a verb of a group, or a group that is itself a command (`classify`). */
export interface CommandDecl<F extends Flags = Flags> {
  name: string;
  description: string;
  args?: readonly ArgDecl[];
  flags?: F;
  /** What --help says after the options, before the examples. */
  details?: string;
  /**
   * Two or three command lines, each run as written against an emulator by
   * test/e2e/examples.test.ts; a trailing `# exit N …` comment gives the exit code it expects.
   */
  examples: readonly string[];
  /** The variables it reads (NO_COLOR, read by all, goes without saying). */
  environment: readonly Variable[];
  /**
   * Its action, imported only when it runs. Given where the verb is listed (its group's index.ts,
   * or tree.ts): an action reads its verb's declaration (its flags), so the declaration cannot import the action.
   */
  run: () => Promise<Action>;
}

/** A group of verbs (`data add`, `data status` …); its --help draws examples and variables from them. */
export interface GroupDecl {
  name: string;
  description: string;
  details?: string;
  commands: readonly CommandDecl[];
}

export type TreeNode = CommandDecl | GroupDecl;

export const isGroup = (node: TreeNode): node is GroupDecl => 'commands' in node;

/** One node of the tree, with the words that name it (`['data', 'add']`). */
export interface WalkedNode {
  path: readonly string[];
  node: TreeNode;
}

/** Every group and command of the tree, each group before its verbs, in the order they are declared. */
export function* walkTree(tree: readonly TreeNode[], parent: readonly string[] = []): Generator<WalkedNode> {
  for (const node of tree) {
    const path = [...parent, node.name];
    yield { path, node };
    if (isGroup(node)) yield* walkTree(node.commands, path);
  }
}
