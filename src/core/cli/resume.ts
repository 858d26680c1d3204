import type { Readable } from 'node:stream';
import { countOf } from '../terminal/words.js';
import type { IOStreams } from '../terminal/io.js';
import type { InFlight } from '../bulk/in-flight.js';
import { InterruptedError } from '../errors.js';
import { interruptionOf, stopWords } from '../signals.js';
import { shellWord } from './command-line.js';
import { endsAtHand } from '../input/sources.js';

/** ` (in FILE)` after the count of failed records an interrupted run names; nothing when none failed. */
const failedFileNote = (failed: number, path: string) => (failed > 0 ? ` (in ${path})` : '');

/**
 * What an interrupted bulk run did, in the same words for every bulk command:
 * `120 lines sent in 120 requests, 2 failed (in failed.jsonl)`, and the unconfirmed when any were.
 */
export function interruptedRun(counts: { sent: number; requests: number; failed: number; unconfirmed: number }, noun: string, failedPath: string): string {
  const unconfirmed = counts.unconfirmed > 0 ? `, ${counts.unconfirmed} unconfirmed` : '';
  return `${countOf(counts.sent, noun)} sent in ${countOf(counts.requests, 'request')}, ${counts.failed} failed${failedFileNote(counts.failed, failedPath)}${unconfirmed}`;
}

/**
 * What to do with the records a run wrote to its failed file. With --checkpoint the same command
 * line sends them again (the checkpoint never records them as done), so resending the file too
 * would send them twice: the file is then the record of what failed, not something to resend.
 */
export const resendHint = (resendCommand: string, checkpoint: boolean) =>
  checkpoint ? 'run the same command again to send them (the file is the record of what failed)' : `resend them with \`${resendCommand}\``;

/** What one run appended to a failed file: the bytes after `priorBytes`, `appendedBytes` of them. */
export interface AppendedRecords {
  path: string;
  priorBytes: number;
  appendedBytes: number;
}

/**
 * The command that resends the records one run appended to a failed file, `command` being given
 * the input it reads (a path, or `-` for stdin) and quoting it. A file the run started is that
 * input as it is. A file that already held records (--failed names a log, appended to run after
 * run) gives only this run's bytes of it, piped in: the records of earlier runs may have been
 * resent already, and resending them again would send them twice.
 */
export function resendCommandLine(records: AppendedRecords, command: (input: string) => string): string {
  if (records.priorBytes === 0) return command(records.path);
  return `tail -c +${records.priorBytes + 1} ${shellWord(records.path)} | head -c ${records.appendedBytes} | ${command('-')}`;
}

/**
 * What to do once a file a bulk run writes (--failed, --skip-invalid) could not be written, the
 * run having delivered records without a checkpoint: `remedy` makes the path writable, but the
 * same command would send what was delivered a second time, which a checkpoint would have skipped.
 */
export function deliveredWithoutCheckpointHint(remedy: string, counts: { sent: number; unconfirmed: number }, noun: string): string {
  const unconfirmed = counts.unconfirmed > 0 ? ` (and the ${counts.unconfirmed} unconfirmed it may have)` : '';
  return `${remedy}, but do not run the same command again: it would send the ${countOf(counts.sent, noun)} this run delivered${unconfirmed} a second time; send only those it did not, or give --checkpoint FILE, which skips what a run delivered`;
}

/**
 * What a run that read a pipe as it went (--skip-invalid, without a checkpoint) adds when Ctrl-C or
 * SIGTERM stopped the reading after `read` records: what followed is in no file, which only the
 * pipe's writer can give again, so no command printed sends it.
 */
export const inputCutShortNote = (read: number, noun: string) => `; reading stopped after ${countOf(read, noun)}: what followed in the input was not read, and is in no file`;

/**
 * Whether an interrupted run left part of its input unread for good: --skip-invalid sends records
 * as they are read, and without --checkpoint (which copies a pipe to a file first) a pipe is read
 * only as far as the signal. Without --skip-invalid the whole input is read before the first send.
 */
export const inputReadInPart = (path: string, stdin: Readable, options: { skipInvalid?: string; checkpoint?: string }) =>
  options.skipInvalid !== undefined && options.checkpoint === undefined && !endsAtHand(path, stdin);

/** What a run cut short before its first record went adds to what it did (nothing sent). */
export const STILL_READING = '; it was still reading the input';

/** ` : the lines before N are skipped`, of a command line continuing from --from-line N; nothing from the first. */
const linesSkipped = (fromLine?: number) => (fromLine !== undefined && fromLine > 1 ? `: the lines before ${fromLine} are skipped` : '');

/**
 * What a run reading stdin without a checkpoint of it tells the user: the command printed reads
 * stdin, and only the same input makes it continue this run.
 */
export const sameStdinHint = (fromLine?: number) => `give it the same input on stdin${linesSkipped(fromLine)}`;

/**
 * What a run that read a pipe in part (inputReadInPart) tells the user: the command printed reads
 * its input from the start, so the part not read alone would not do (and --from-line, counting
 * from the input's first line, would skip that part's first lines).
 */
export const wholeInputAgain = (path: string, fromLine?: number) => `give it the whole input again${path === '-' ? ' on stdin' : ''}, what this run did not read included${linesSkipped(fromLine)}`;

/**
 * Why, after csafe left at once (a second Ctrl-C), no one command line continues the run; nothing
 * when one does. `sameLine`: the command line is the run's own (with a checkpoint, or a run whose
 * every record may be sent again), which reads the input again; else it sends the failed file,
 * which must then hold every record neither acknowledged nor unconfirmed.
 */
export function noResumeAfterLeaving(left: { complete: boolean; readAll: boolean }, noun: string, sameLine: boolean): string | undefined {
  if (!left.complete) return 'not all it had to write as it left reached its files (see above)';
  if (!sameLine && !left.readAll) return `it left before it had read the whole input: the ${noun}s after those read are in no file`;
  return undefined;
}

/** What an interrupted bulk run that no one command line continues prints on stderr: what it did, and why, in words. */
export function reportNoResume(io: IOStreams, done: string, why: string): void {
  io.warn(`interrupted: ${done}`);
  io.warn(`no one command continues this run: ${why}`);
}

/** What an interrupted bulk run prints on stderr: what it did, then the command that continues it, and a hint when there is one. */
export function reportInterruption(io: IOStreams, done: string, resume: string, hint?: string): void {
  io.warn(`interrupted: ${done}`);
  io.warn(`continue with: ${resume}`);
  if (hint !== undefined) io.warn(`hint: ${hint}`);
}

/**
 * A step before a bulk run's first record goes (copying a pipe, checking every record), which Ctrl-C
 * or SIGTERM can cut short while a slow writer keeps the input open: then `report` says what was
 * done, as for a run cut short while sending (its record on stdout in a pipe), and the run ends as
 * interrupted. Nothing was sent, so nothing was left undelivered.
 */
export async function reportedIfInterrupted<T>(step: Promise<T>, signal: AbortSignal, report: () => Promise<void>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    if (!(error instanceof InterruptedError)) throw error;
    await report();
    throw interruptionOf(signal);
  }
}

/**
 * Says, as soon as the run is interrupted, how many answers to requests in flight it waits for
 * (nothing when there are none); returns what stops listening once the run is over.
 */
export function sayAwaitedAnswersOnInterrupt(signal: AbortSignal, io: IOStreams, inFlight: InFlight): () => void {
  const say = () => {
    const requests = inFlight.count;
    const { why, again } = stopWords(signal);
    if (requests > 0) io.note(`${why}: waiting for the answers to ${countOf(requests, 'request')} in flight (${again} to leave without them)`);
  };
  signal.addEventListener('abort', say, { once: true });
  return () => signal.removeEventListener('abort', say);
}
