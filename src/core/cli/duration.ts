import { UsageError } from '../errors.js';

// How a duration flag (`--timeout 5m`) is read into milliseconds, and which values are refused.

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `90` (seconds), `500ms`, `30s`, `2m`, `1h` or `1h30m` → milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const ms = durationMs(text.trim());
  if (ms === undefined) throw new UsageError(`${flag}: expected a duration such as 30, 30s, 5m or 1h, got "${text}"`);
  return ms;
}

function durationMs(text: string): number | undefined {
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
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

export function parseNonNegativeInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag}: expected a whole number, got "${text}"`);
  return Number(text);
}
