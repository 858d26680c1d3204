// commander's commands, built from their declarations (declaration.ts): options with their help
// and defaults, arguments, the help that follows the options, and the action, loaded when it runs.

import { Option, type AddHelpTextContext, type Command } from 'commander';
import { flagSpec, type FlagDecl, type Flags } from '../core/cli/flags.js';
import { fitHelpText, groupHelpSections, HELP_WIDTH, renderHelpSections, type HelpSections } from '../core/cli/help.js';
import type { App } from './app.js';
import { isGroup, type CommandDecl, type GroupDecl, type TreeNode } from './declaration.js';

/** commander's argParser of a repeatable flag: every value given, in order. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The commander option of a declared flag. */
export function optionOf(key: string, flag: FlagDecl): Option {
  if (flag.type === 'absent') return new Option(flagSpec(key, flag)).hideHelp();
  const option = new Option(flagSpec(key, flag), flag.help);
  if (flag.type === 'text' && flag.repeat) option.argParser(collect);
  // commander hands over text, as given on the command line; the flag's schema reads a default the same way.
  if ('default' in flag && flag.default !== undefined) option.default(String(flag.default));
  return option;
}

/** Adds every declared flag to `command`, in the order declared. */
export function addFlags(command: Command, flags: Flags): Command {
  for (const [key, flag] of Object.entries(flags)) command.addOption(optionOf(key, flag));
  return command;
}

/** The width help is drawn at: what main() configured for stdout (the terminal's, else 80). */
const helpWidth = ({ command }: AddHelpTextContext) => command.configureOutput().getOutHelpWidth?.() ?? HELP_WIDTH;

/** What follows the options: the command's own text, then its examples and variables, each fitted to the help's width. */
function addHelpAfter(command: Command, details: string | undefined, sections: HelpSections): Command {
  if (details !== undefined) command.addHelpText('after', (context) => fitHelpText(details, helpWidth(context)));
  return command.addHelpText('after', (context) => renderHelpSections(sections, helpWidth(context)));
}

/** The words that run `command`: `csafe data add`. */
const commandPath = (command: Command): string => (command.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name());

/**
 * commander's "missing required argument 'namespace'" said as csafe says a missing flag: the
 * argument, what it is, and the command's usage as a hint. Too many arguments (`events send *.jsonl`)
 * get the usage too, which says which ones the command takes.
 */
function sayArgumentProblems(command: Command, verb: CommandDecl): void {
  const { outputError } = command.configureOutput();
  const usage = `hint: usage: ${commandPath(command)} ${command.usage()}\n`;
  command.configureOutput({
    outputError: (text, write) => {
      const tooMany = /^error: too many arguments for '[^']+'\. Expected (\d+) arguments? but got (\d+)\.\n$/.exec(text);
      if (tooMany) return write(`error: too many arguments: ${commandPath(command)} takes at most ${tooMany[1]}, got ${tooMany[2]}\n${usage}`);
      const missing = /^error: missing required argument '([^']+)'\n$/.exec(text);
      const arg = missing && verb.args?.find((a) => a.name.replace(/[<>[\].]/g, '') === missing[1]);
      if (!arg) return outputError!(text, write);
      write(`error: ${arg.name}: is required${arg.help ? `: ${arg.help}` : ''}\n${usage}`);
    },
  });
}

function addVerb(parent: Command, verb: CommandDecl, app: App): Command {
  const command = addFlags(parent.command(verb.name).description(verb.description), verb.flags ?? {});
  for (const arg of verb.args ?? []) command.argument(arg.name, arg.help);
  sayArgumentProblems(command, verb);
  return addHelpAfter(command, verb.details, verb).action(app.action(async (ctx, invoked) => (await verb.run())(ctx, invoked, verb.flags ?? {})));
}

function addGroup(parent: Command, group: GroupDecl, app: App): Command {
  const command = addHelpAfter(parent.command(group.name).description(group.description), group.details, groupHelpSections(group.commands));
  for (const verb of group.commands) addVerb(command, verb, app);
  return command;
}

/** The command of a node of the tree, with all its verbs. */
export const addNode = (parent: Command, node: TreeNode, app: App): Command => (isGroup(node) ? addGroup(parent, node, app) : addVerb(parent, node, app));
