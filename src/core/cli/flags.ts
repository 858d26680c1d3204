// What a flag is, as plain data: commander's options (commands/program.ts), the zod schema that
// checks their values (core/cli/options.ts), the help, the lists of flags that take a value and
// the walk of the command tree are all derived from it. No zod or commander here: `--help` loads this.

import type { Shard } from '../bulk/shard.js';

/** A flag without a value: `--wait`; `negate` declares `--no-<name>`, on unless given. */
export interface SwitchFlag {
  type: 'switch';
  help: string;
  short?: string;
  negate?: boolean;
  /** Chooses how the command's result is written (see TextFlag). */
  output?: boolean;
}

/**
 * `--dry-run`, one flag with one meaning on every command that sends (core/http/dry-run.ts): a dry
 * run writes no file either, so --skip-invalid, --failed and --checkpoint are neither read nor written.
 */
export const DRY_RUN_FLAG = {
  type: 'switch',
  help: 'check everything, then print the requests it would send (credentials redacted) instead of sending them; writes no file; exit 0, or 2 for invalid input',
} as const satisfies SwitchFlag;

/** A flag with a value, kept as text: checked where it is used (a duration, a URL) or by a schema the command adds. */
export interface TextFlag {
  type: 'text';
  /** The value's name in help: `--user-id <id>`. */
  value: string;
  help: string;
  short?: string;
  default?: string;
  /** Given more than once, every value is kept, in order. */
  repeat?: boolean;
  /** Never printed back in a command line (it would land in the shell's history). */
  secret?: boolean;
  /** Chooses how the command's result is written: left out of a command line printed for another result (a download). */
  output?: boolean;
}

/**
 * A whole number within [min, max] (max: any), its default when not given. With a `unit` it is a
 * quantity: `bytes` also takes a size (`5MB`, `4MiB`), `ms` a duration (`1s`, `500ms`), a plain
 * number keeping its meaning (bytes, milliseconds).
 */
export interface CountFlag {
  type: 'count';
  value: string;
  help: string;
  min: number;
  max?: number;
  default?: number;
  unit?: 'bytes' | 'ms';
  /** What a bad value is told it should be, when "a whole number ≥ min" does not say it. */
  expected?: string;
}

/** Requests a second, `20`, `20/s` or `0.5/s`: how fast a run may send (core/bulk/pace.ts). */
export interface RateFlag {
  type: 'rate';
  value: string;
  help: string;
}

/** A file name, not empty. */
export interface FileFlag {
  type: 'file';
  value: string;
  help: string;
}

/** One of a few words. */
export interface ChoiceFlag {
  type: 'choice';
  value: string;
  help: string;
  choices: readonly string[];
  default?: string;
}

/** `--shard i/n` (core/bulk/shard). */
export interface ShardFlag {
  type: 'shard';
  help: string;
}

/**
 * A shared flag a command leaves out on purpose (`stream parts --shard`): hidden from help and
 * refused with the reason, where commander would call it unknown and suggest a look-alike flag.
 */
export interface AbsentFlag {
  type: 'absent';
  value: string;
  reason: string;
}

export type FlagDecl = SwitchFlag | TextFlag | CountFlag | RateFlag | FileFlag | ChoiceFlag | ShardFlag | AbsentFlag;

/** A command's flags by the name its options carry them under (commander's: `--max-retries` is `maxRetries`). */
export type Flags = Readonly<Record<string, FlagDecl>>;

/** The value of each flag once checked. */
type ValueOf<F extends FlagDecl> = F extends SwitchFlag
  ? boolean
  : F extends CountFlag
    ? F extends { default: number } ? number : number | undefined
    : F extends RateFlag
      ? number | undefined
      : F extends ShardFlag
      ? Shard | undefined
      : F extends AbsentFlag
        ? undefined
        : F extends { repeat: true }
          ? string[]
          : F extends ChoiceFlag
            ? F extends { default: string } ? F['choices'][number] : F['choices'][number] | undefined
            : F extends { default: string }
              ? string
              : string | undefined;

/** A command's options once checked, from its flag declarations. */
export type OptionsOf<F extends Flags> = { -readonly [K in keyof F]: ValueOf<F[K]> };

/** An option's name as its flag spells it: `maxRetries` → `max-retries`. */
export const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** `maxRetries` → `--max-retries`; a negated switch is `--no-…`. */
export const longFlag = (key: string, flag: FlagDecl) => (flag.type === 'switch' && flag.negate ? `--no-${kebab(key)}` : `--${kebab(key)}`);

/** The name of a flag's value in help (`n` of `--batch-size <n>`), or none for a switch. */
function valueName(flag: FlagDecl): string | undefined {
  if (flag.type === 'switch') return undefined;
  return flag.type === 'shard' ? 'i/n' : flag.value;
}

/** The flag as commander and help write it: `-o, --output <format>`. */
export function flagSpec(key: string, flag: FlagDecl): string {
  const short = 'short' in flag && flag.short !== undefined ? `${flag.short}, ` : '';
  const value = valueName(flag);
  return `${short}${longFlag(key, flag)}${value === undefined ? '' : ` <${value}>`}`;
}

/** Every spelling (`-o`, `--output`) of the flags that take the next argument as their value. */
export function flagsWithValue(flags: Flags): Set<string> {
  return new Set(
    Object.entries(flags)
      .filter(([, flag]) => valueName(flag) !== undefined)
      .flatMap(([key, flag]) => ('short' in flag && flag.short !== undefined ? [flag.short, longFlag(key, flag)] : [longFlag(key, flag)])),
  );
}

/**
 * The flag that fills a field of a request (`expires_in` → `--expires-in`), by a map of field to
 * option name, to name it in a problem the request's schema finds; undefined for a field no flag fills.
 */
export function flagOfField(optionOf: Readonly<Record<string, string>>, field: PropertyKey): string | undefined {
  const key = optionOf[String(field)];
  return key === undefined ? undefined : `--${kebab(key)}`;
}
