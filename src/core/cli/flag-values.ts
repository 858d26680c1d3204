import type { Command, Option } from 'commander';
import { UsageError } from '../errors.js';

/**
 * commander gives a flag that must have a value the next word, whatever it is: `--failed --wait` sets
 * the failed file to "--wait" and never waits. A value that is one of the command's own flags is
 * far more likely a value left out, so it is refused (exit 2) before anything runs; such a value
 * can still be given joined to its flag (`--text=--wait`). Words after `--` are not csafe's.
 */
export function checkFlagValues(argv: readonly string[], command: Command): void {
  const options = optionsOf(command);
  const spellings = new Set(['-h', '--help', '-V', '--version', ...options.flatMap(spellingsOf)]);
  const takingValue = options.filter((option) => option.required);
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  for (let i = 0; i + 1 < end; i++) {
    const [flag, next] = [argv[i]!, argv[i + 1]!];
    const option = takingValue.find((candidate) => spellingsOf(candidate).includes(flag));
    if (option === undefined || !spellings.has(next)) continue;
    throw new UsageError(`${flag} needs a value, and ${next} came next: give ${flag} its value first`, {
      hint: `a value that is itself a flag's name goes joined to its flag: ${option.long ?? flag}=${next}`,
    });
  }
}

/** The options of `command` and of every command above it (the global flags). */
const optionsOf = (command: Command): readonly Option[] => [...command.options, ...(command.parent ? optionsOf(command.parent) : [])];

const spellingsOf = (option: Option): string[] => [option.short, option.long].filter((flag): flag is string => flag !== undefined);
