import { UsageError } from './errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `90` (seconds), `500ms`, `30s`, `2m`, `1h` or `1h30m` → milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) {
    throw new UsageError(`${flag}: expected a duration such as 30, 30s, 5m or 1h, got "${text}"`);
  }
  return Math.round(parts.reduce((total, [, amount, unit]) => total + Number(amount) * UNITS[unit!]!, 0));
}

/** A duration that must leave some time: a per-request timeout of 0 would fail every request. */
export function parsePositiveDuration(text: string, flag: string): number {
  const ms = parseDuration(text, flag);
  if (ms <= 0) throw new UsageError(`${flag}: expected a duration greater than 0, got "${text}"`);
  return ms;
}

export function parseNonNegativeInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag}: expected a whole number, got "${text}"`);
  return Number(text);
}
