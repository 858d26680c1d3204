import { UsageError } from '../errors.js';

// How a duration flag (`--timeout 5m`) is read into milliseconds, and a size flag
// (`--max-batch-bytes 5MB`) into bytes, and which values are refused.

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `90` (seconds), `500ms`, `30s`, `2m`, `1h` or `1h30m` → milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const ms = durationMs(text.trim());
  if (ms === undefined) throw new UsageError(`${flag}: expected a duration such as 30, 30s, 5m or 1h, got "${text}"`);
  return ms;
}

/**
 * A duration with a unit (`500ms`, `1s`, `2m`, `1h30m`) in milliseconds, or a plain number in
 * `plainUnitMs` (a flag keeps the meaning its plain numbers always had: `--latency 50` is 50 ms,
 * `--timeout 90` 90 s); undefined when it is neither.
 */
export function durationMs(text: string, plainUnitMs = 1_000): number | undefined {
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * plainUnitMs);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  return Math.round(parts.reduce((total, [, amount, unit]) => total + Number(amount) * UNITS[unit!]!, 0));
}

/**
 * A duration that must leave some time: a timeout of 0 would fail every request or every wait.
 * A negative one (`-5s`) is refused as below 0, not as unreadable.
 */
export function parsePositiveDuration(text: string, flag: string): number {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-');
  // Unreadable even without its sign: parseDuration refuses it as such.
  const ms = durationMs(negative ? trimmed.slice(1) : trimmed) ?? parseDuration(text, flag);
  if (ms <= 0 || negative) throw new UsageError(`${flag}: expected a duration greater than 0, got "${text}"`);
  return ms;
}

/**
 * The longest a Node timer waits: a longer delay fires after 1 ms (with a TimeoutOverflowWarning).
 * A wait a user may set longer (`--flush-interval 1000h`) is waited out in steps no longer than this;
 * one a single timer must hold (a request's time limit) is refused past it.
 */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** LONGEST_TIMER_MS in whole hours, as a limit is said: 596h. */
const LONGEST_TIMER_HOURS = Math.floor(LONGEST_TIMER_MS / 3_600_000);

/**
 * A duration a single timer waits out (a request's time limit, a Retry-After sleep): one longer
 * than a Node timer can hold would fire after 1 ms instead, so `--request-timeout 1000h` would fail
 * every request at once, as "no answer within 3600000 s". It is refused instead.
 */
export function parseTimerDuration(text: string, flag: string, parse: (text: string, flag: string) => number = parsePositiveDuration): number {
  const ms = parse(text, flag);
  if (ms > LONGEST_TIMER_MS) throw new UsageError(`${flag}: expected at most ${LONGEST_TIMER_HOURS}h, the longest a timer can wait, got "${text}"`);
  return ms;
}

export function parseNonNegativeInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag}: expected a whole number, got "${text}"`);
  return Number(text);
}

/** `m` alone is left out: a duration's minutes, it would be a size's megabytes. */
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** `5000000`, `5MB`, `5 MB`, `500kB`, `4MiB` → bytes (kB, MB, GB are powers of 1000, KiB, MiB, GiB of 1024); undefined when it is not a size. */
export function sizeBytes(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?) ?([a-z]+)?$/i.exec(text.trim());
  if (match === null) return undefined;
  const unit = match[2] === undefined ? 1 : SIZE_UNITS[match[2].toLowerCase()];
  return unit === undefined ? undefined : Math.round(Number(match[1]) * unit);
}
