import { sameServiceCommand, shellWord } from '../../../core/cli/command-line.js';
import { resendCommandLine, resendHint, type AppendedRecords } from '../../../core/cli/resume.js';
import { unlessReaderGone, type IOStreams } from '../../../core/terminal/io.js';
import { printResult, recordView, type OutputFormat } from '../../../core/terminal/output.js';
import { countOf } from '../../../core/terminal/words.js';
import type { BulkCounts } from '../../../core/bulk/counts.js';

// `csafe events send`: the counts a run keeps, and the summary it prints from them.

export interface Summary extends BulkCounts {
  input: string;
  duration_ms: number;
  /** Events sent per second. */
  events_per_second: number;
  failed_file: string | null;
  unconfirmed_file: string | null;
  invalid_file: string | null;
}

export function summarise(tally: BulkCounts, run: { input: string; durationMs: number; failedFile?: string; unconfirmedFile?: string; invalidFile?: string }): Summary {
  return {
    input: run.input,
    ...tally,
    duration_ms: run.durationMs,
    events_per_second: run.durationMs > 0 ? Math.round((tally.sent * 1000) / run.durationMs) : 0,
    failed_file: tally.failed > 0 ? (run.failedFile ?? null) : null,
    unconfirmed_file: tally.unconfirmed > 0 ? (run.unconfirmedFile ?? null) : null,
    invalid_file: tally.invalid > 0 ? (run.invalidFile ?? null) : null,
  };
}

/**
 * The line for people on stderr; with a `format`, the same figures also go to stdout as one record.
 * `failedRecords`: what this run appended to the failed file, when it was not the whole of it;
 * `argv`: the run's arguments, whose global flags the command that resends keeps.
 */
export async function reportSummary(io: IOStreams, summary: Summary, format: OutputFormat | undefined, argv: readonly string[], checkpoint = false, failedRecords?: AppendedRecords): Promise<void> {
  const seconds = (summary.duration_ms / 1000).toFixed(1);
  const figures =
    `read ${summary.read}, valid ${summary.valid}, invalid ${summary.invalid}, sent ${summary.sent}, failed ${summary.failed}, ` +
    `skipped by checkpoint ${summary.skipped_checkpoint}, other shards ${summary.other_shards}`;
  io.note(`${figures} in ${seconds} s (${summary.events_per_second} events/s)`);
  if (summary.failed_file) {
    const resend = resendCommandLine(failedRecords ?? { path: summary.failed_file, priorBytes: 0, appendedBytes: 0 }, (input) => sameServiceCommand(argv, `events send ${shellWord(input)}`));
    io.warn(`${countOf(summary.failed, 'event')} written to ${summary.failed_file}: ${resendHint(resend, checkpoint)}`);
  }
  if (summary.unconfirmed_file) {
    io.warn(`${countOf(summary.unconfirmed, 'event')} written to ${summary.unconfirmed_file}: the service may have stored them, and without idempotency keys resending them may store them twice; check before resending`);
  }
  if (summary.invalid_file) io.note(`${countOf(summary.invalid, 'invalid record')} written to ${summary.invalid_file}`);
  await printSummaryRecord(io, summary, format);
}

/** The summary as one record on stdout, with a `format`: also for a run cut short, whose report went to stderr. */
export async function printSummaryRecord(io: IOStreams, summary: Summary, format: OutputFormat | undefined): Promise<void> {
  // The reader of stdout gone (`| head`) takes the record, not the exit code its counts give.
  if (format !== undefined) await printResult(io, format, summary, recordView({ ...summary })).catch(unlessReaderGone);
}
