import type { Command } from 'commander';
import { UsageError } from '../errors.js';

/**
 * `--timeout` limits a wait, and only the verbs that wait declare it. Anywhere else it is most
 * likely the per-request timeout of an older csafe: a usage error (exit 2) names what replaced it.
 * `start` is where the command begins in argv, after the global flags.
 */
export function checkTimeoutPlace(argv: readonly string[], start: number, program: Command): void {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  for (let i = 0; i < end; i++) {
    const arg = argv[i]!;
    if (arg !== '--timeout' && !arg.startsWith('--timeout=')) continue;
    const value = arg.startsWith('--timeout=') ? arg.slice('--timeout='.length) : (argv[i + 1] ?? '<duration>');
    if (i < start) {
      throw new UsageError(`--timeout before the command is no longer the timeout of each request: use --request-timeout ${value}`, {
        hint: `--timeout now goes after a command that waits and limits the wait: csafe data status NAMESPACE REQUEST_ID --wait --timeout ${value}`,
      });
    }
    const verb = invokedVerb(argv, start, program);
    if (verb !== undefined && !verb.options.some((option) => option.long === '--timeout')) {
      throw new UsageError(`${commandPath(verb)} does not wait, so it has no --timeout: for the timeout of each request use --request-timeout ${value}`);
    }
  }
}

/** The command that runs: the group at `start`, or its subcommand right after it; undefined when that is not a known command. */
function invokedVerb(argv: readonly string[], start: number, program: Command): Command | undefined {
  const group = program.commands.find((command) => command.name() === argv[start]);
  if (group === undefined || group.commands.length === 0) return group;
  return group.commands.find((command) => command.name() === argv[start + 1]);
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}
