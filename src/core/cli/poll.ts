import { WaitTimeoutError } from '../errors.js';

// How a command waits for the service to finish something: repeated polls with backoff, bounded by a
// deadline.

export interface PollOptions<T> {
  /** Milliseconds before giving up with WaitTimeoutError (exit 124); Infinity waits for ever. */
  timeoutMs: number;
  /** First pause between polls; doubled after each poll up to maxIntervalMs. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  now: () => number;
  /** Rejects with InterruptedError when the user presses Ctrl-C. */
  sleep: (ms: number) => Promise<void>;
  /** Called with every fresh value, e.g. to update a spinner. */
  onPoll?: (value: T) => void;
  /** What was being waited for, for the timeout message. */
  describe: string;
}

const DEFAULT_POLL_INTERVAL = { initialMs: 1_000, maxMs: 10_000 } as const;

/** The pause before poll number `poll` (0 for the pause after the first poll). */
export function pollInterval(poll: number, initialMs: number = DEFAULT_POLL_INTERVAL.initialMs, maxMs: number = DEFAULT_POLL_INTERVAL.maxMs): number {
  return Math.min(maxMs, initialMs * 2 ** poll);
}

/**
 * Calls get() until isDone() holds, backing off from 1 s to 10 s, and never sleeping past the
 * deadline: the last poll happens at the deadline, so a timeout always reports a fresh state.
 */
export async function pollUntil<T>(get: () => Promise<T>, isDone: (value: T) => boolean, options: PollOptions<T>): Promise<T> {
  const deadline = options.now() + options.timeoutMs;
  for (let poll = 0; ; poll++) {
    const value = await get();
    options.onPoll?.(value);
    if (isDone(value)) return value;
    const remaining = deadline - options.now();
    if (remaining <= 0) {
      throw new WaitTimeoutError(`timed out waiting for ${options.describe}`, {
        hint: 'it is still running; check again later, or wait longer with --timeout',
      });
    }
    await options.sleep(Math.min(remaining, pollInterval(poll, options.initialIntervalMs, options.maxIntervalMs)));
  }
}
