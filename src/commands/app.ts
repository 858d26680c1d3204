import type { Command } from 'commander';
import type { Flags } from '../core/cli/flags.js';
import type { Context } from '../context.js';
import type { LineRequestsRun } from '../core/bulk/line-requests.js';

/**
 * How a command ended when it did not throw (a command that returns nothing succeeded). Commands
 * say what happened; main.ts alone turns it, or the error thrown, into an exit code.
 */
export type Outcome =
  /** Every record was checked and nothing sent: a dry run, or invalid input refused before sending. */
  | { kind: 'checked'; invalid: number }
  /** One classification; `failOnHeld`: a --fail-on condition held. */
  | { kind: 'classified'; failOnHeld: boolean }
  /** A request followed to its end (`data status --wait`, `data import --wait`). */
  | { kind: 'followed'; failed: boolean }
  /** No API key is configured (`auth status`). */
  | { kind: 'unauthenticated' }
  /** The setting asked for is not set (`config get`, as `git config` does). */
  | { kind: 'notSet' }
  /** `emulator exec` ran a command to its end: its exit code is the command's, not csafe's. */
  | { kind: 'ranCommand'; code: number }
  | BatchOutcome;

/**
 * What a bulk run (classify --batch, events send, data add, stream parts) did with its records:
 * the counts its exit code is computed from (main.ts, exitCodeOfRun), the same way for every command.
 */
export interface RunCounts {
  /** Records the service accepted. */
  sent: number;
  /** Records an earlier run sent, skipped by --checkpoint: they succeeded too. */
  done: number;
  /** Valid records left to the other workers of --shard: the input had valid records, whatever this worker had. */
  otherShards: number;
  /** Records written to the --failed file. */
  failed: number;
  /** Records written to the --unconfirmed file: their request may have been applied (stream parts, which have no idempotency key). */
  unconfirmed: number;
  /** Invalid records set aside in the --skip-invalid file. */
  skipped: number;
  /** Invalid records refused without --skip-invalid, found by the check before anything is sent. */
  invalid: number;
  /** Records for which a --fail-on condition held. */
  flagged: number;
  /** Accepted requests the service then reported failed (`data add --wait`). */
  failedRequests: number;
  /** The failure that stopped the run part-way (see stopsTheRun), the records it left handed back in the failed file. */
  stoppedBy?: unknown;
}

/** A run's counts, those not given zero. */
export const runCounts = (counts: Partial<RunCounts>): RunCounts => ({ sent: 0, done: 0, otherShards: 0, failed: 0, unconfirmed: 0, skipped: 0, invalid: 0, flagged: 0, failedRequests: 0, ...counts });

export interface BatchOutcome extends RunCounts {
  kind: 'batch';
}

/** How a bulk run ended, for main.ts. */
export const batchOutcome = (counts: Partial<RunCounts>): BatchOutcome => ({ kind: 'batch', ...runCounts(counts) });

/** How a run of one request per line ended (core/bulk/line-requests.ts), with what the command counted of the answers. */
export function lineRunOutcome(run: LineRequestsRun, answers: Pick<Partial<RunCounts>, 'flagged'> = {}): Outcome {
  if (run.kind === 'checked') return run;
  const { counts } = run;
  return batchOutcome({ sent: counts.sent, done: run.deliveredEarlier, otherShards: counts.other_shards, failed: counts.failed, unconfirmed: counts.unconfirmed, skipped: run.skipped, stoppedBy: run.stoppedBy, ...answers });
}

/**
 * A command's work. Its declaration (declaration.ts) loads it with `await import()` when the
 * command runs: `--help` loads the declarations only, never the work and what it needs (zod, the
 * HTTP client, chalk, tables) — test/e2e/startup.test.ts.
 */
export type Action<F extends Flags = Flags> = ActionOf<F>['run'];

/**
 * `flags`: the verb's flag declarations, handed over by the program rather than imported, so
 * an action's chunk shares no module with `--help`'s (scripts/bundle.mjs). Its parameters are
 * checked both ways (a method's are), so an action of particular flags is an Action of any.
 */
interface ActionOf<F extends Flags> {
  run(ctx: Context, command: Command, flags: F): Promise<Outcome | void>;
}

/** What main.ts hands the program it builds (commands/program.ts): a way to turn a command's work into a commander action. */
export interface App {
  action(run: (ctx: Context, command: Command) => Promise<Outcome | void>): (...params: unknown[]) => Promise<void>;
}

/** Positional arguments as commander parsed them (variadic ones arrive as arrays). */
export const positional = (command: Command) => command.processedArgs as unknown[];
