import { setTimeout as sleep } from 'node:timers/promises';

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

export interface WaitOptions {
  /** What the test waits for, as the failure names it ("the GET of the request's status"). */
  what: string;
  /** How long to wait before failing: generous, so a loaded machine is slow, not red. */
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `probe` until it returns something truthy, and returns that; fails naming `what` once
 * `timeoutMs` has passed, so a condition that never comes is a failure, not a hang.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, { what, timeoutMs = 20_000, intervalMs = 25 }: WaitOptions): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/**
 * The TimeoutOverflowWarnings Node emits while `during` runs: a timer asked to wait longer than
 * it can (2^31 ms) that fires after 1 ms instead, so whatever waits on it wakes every millisecond.
 */
export async function timerOverflowsDuring(during: () => Promise<void>): Promise<string[]> {
  const overflows: string[] = [];
  const onWarning = (warning: Error) => void (warning.name === 'TimeoutOverflowWarning' && overflows.push(warning.message));
  process.on('warning', onWarning);
  try {
    await during();
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    return overflows;
  } finally {
    process.off('warning', onWarning);
  }
}
