// commander's commands, built from their declarations (declaration.ts): options with their help
// and defaults, arguments, the help that follows the options, and the action, loaded when it runs.

import { Option, type Command } from 'commander';
import { flagSpec, type FlagDecl, type Flags } from '../core/cli/flags.js';
import { groupHelpSections, renderHelpSections } from '../core/cli/help.js';
import type { App } from './app.js';
import { isGroup, type CommandDecl, type GroupDecl, type TreeNode } from './declaration.js';

/** commander's argParser of a repeatable flag: every value given, in order. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The commander option of a declared flag. */
export function optionOf(key: string, flag: FlagDecl): Option {
  if (flag.type === 'absent') return new Option(flagSpec(key, flag)).hideHelp();
  const option = new Option(flagSpec(key, flag), flag.help);
  if (flag.type === 'text' && flag.repeat) option.argParser(collect);
  if (flag.type === 'text' && flag.required) option.makeOptionMandatory();
  // commander hands over text, as given on the command line; the flag's schema reads a default the same way.
  if ('default' in flag && flag.default !== undefined) option.default(String(flag.default));
  return option;
}

/** Adds every declared flag to `command`, in the order declared. */
export function addFlags(command: Command, flags: Flags): Command {
  for (const [key, flag] of Object.entries(flags)) command.addOption(optionOf(key, flag));
  return command;
}

function addVerb(parent: Command, verb: CommandDecl, app: App): Command {
  const command = addFlags(parent.command(verb.name).description(verb.description), verb.flags ?? {});
  for (const arg of verb.args ?? []) command.argument(arg.name, arg.help);
  if (verb.details !== undefined) command.addHelpText('after', verb.details);
  return command
    .addHelpText('after', renderHelpSections(verb))
    .action(app.action(async (ctx, invoked) => (await verb.run())(ctx, invoked, verb.flags ?? {})));
}

function addGroup(parent: Command, group: GroupDecl, app: App): Command {
  const command = parent.command(group.name).description(group.description);
  if (group.details !== undefined) command.addHelpText('after', group.details);
  command.addHelpText('after', renderHelpSections(groupHelpSections(group.commands)));
  for (const verb of group.commands) addVerb(command, verb, app);
  return command;
}

/** The command of a node of the tree, with all its verbs. */
export const addNode = (parent: Command, node: TreeNode, app: App): Command => (isGroup(node) ? addGroup(parent, node, app) : addVerb(parent, node, app));
