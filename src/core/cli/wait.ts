import { parsePositiveDuration } from './duration.js';
import { ApiError, MissingCredentialsError, UsageError } from '../errors.js';
import type { IOStreams } from '../terminal/io.js';
import { pollUntil } from './poll.js';
import { startSpinner } from '../terminal/spinner.js';
import { isStillRunning, unlistedStatusNote, type ListedStatuses } from './statuses.js';

/** The wait limit given by a verb's own --timeout: for ever when absent, and only meaningful with --wait. */
export function waitTimeoutMs(options: { wait?: boolean; timeout?: string }): number {
  if (options.timeout === undefined) return Infinity;
  if (!options.wait) {
    throw new UsageError('--timeout limits --wait, which was not given', {
      hint: `add --wait; for the timeout of each request use --request-timeout ${options.timeout}`,
    });
  }
  return parsePositiveDuration(options.timeout, '--timeout');
}

export interface WaitOptions {
  wait: boolean;
  /** How long --wait waits; Infinity for ever. */
  timeoutMs: number;
}

/** A verb's --wait and --timeout as given on the command line, checked as waitTimeoutMs checks them. */
export function waitOptions(options: { wait?: boolean; timeout?: string }): WaitOptions {
  return { wait: Boolean(options.wait), timeoutMs: waitTimeoutMs(options) };
}

/** What a wait runs on: a command's Context serves as it is. */
export interface WaitRuntime {
  io: IOStreams;
  now(): number;
  /** Rejects with InterruptedError on Ctrl-C. */
  sleep(ms: number): Promise<void>;
}

export interface WaitSpec<T> {
  timeoutMs: number;
  /** One lookup of the thing waited for. */
  get(): Promise<T>;
  /** Its status: the wait goes on while it is one of `statuses.running`. */
  status(value: T): string;
  statuses: ListedStatuses;
  /** What is waited for, for the spinner and the timeout message: `decision dec_1`. */
  describe: string;
  /** The spinner's text for a fresh value: its status, counts … */
  progress(value: T): string;
  /** The command that checks again later, printed when the wait ends early: `csafe decision get dec_1 --wait`. */
  checkAgain: string;
  /**
   * Made by this run (`decision create --wait`): it is there whatever ends the wait, even a 401
   * when an access token expires, so the command that checks on it is printed then too.
   */
  made?: boolean;
}

export type WaitForOne<T> = WaitRuntime & WaitSpec<T>;

/**
 * Polls one resource until its status is no longer one the spec says is under way (1 s → 10 s
 * backoff), with a spinner on a terminal; ended at a status the spec does not list, it says so. When
 * the wait ends early (timeout: exit 124, Ctrl-C: 130, the service gone: 1), it first says what is
 * still pending and the command that checks on it, so no accepted id is lost.
 */
export async function waitForOne<T>(runtime: WaitRuntime, wait: WaitSpec<T>): Promise<T> {
  const spinner = await startSpinner(runtime.io, `Waiting for ${wait.describe}…`);
  let settled: T;
  try {
    settled = await pollUntil(wait.get, (value) => !isStillRunning(wait.statuses, wait.status(value)), {
      timeoutMs: wait.timeoutMs,
      now: () => runtime.now(),
      sleep: (ms) => runtime.sleep(ms),
      onPoll: (value) => spinner.update(`${wait.describe}: ${wait.progress(value)}`),
      describe: wait.describe,
    });
  } catch (error) {
    spinner.stop();
    if (wait.made === true || mayStillBePending(error)) {
      runtime.io.warn(`${wait.describe} is still pending; check on it with:`);
      runtime.io.warn(`  ${wait.checkAgain}`);
    }
    throw error;
  }
  spinner.stop();
  const unlisted = unlistedStatusNote(wait.statuses, wait.describe, wait.status(settled), wait.checkAgain);
  if (unlisted !== undefined) runtime.io.warn(unlisted);
  return settled;
}

/** Not when the service answered that the thing is not there, or refused the request or its key: then nothing waits. */
const mayStillBePending = (error: unknown) => !(error instanceof ApiError && error.status < 500) && !(error instanceof MissingCredentialsError);
