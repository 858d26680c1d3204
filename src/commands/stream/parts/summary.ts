import type { Context } from '../../../context.js';
import type { FailedFile } from '../../../core/files/failed-file.js';
import type { SkipFile } from '../../../core/bulk/checked-records.js';
import { unlessReaderGone } from '../../../core/terminal/io.js';
import { printResult, recordView } from '../../../core/terminal/output.js';
import { countOf } from '../../../core/terminal/words.js';
import { sameServiceCommand, shellWord } from '../../../core/cli/command-line.js';
import { resendCommandLine, resendHint } from '../../../core/cli/resume.js';
import type { PartsTally } from './deliver.js';

// `csafe stream parts`: the record a run prints, and where its failed, unconfirmed and invalid parts
// went.

interface RunResult {
  namespace: string;
  id: string;
  tally: PartsTally;
  failed: FailedFile;
  unconfirmed: FailedFile;
  invalid?: SkipFile;
  durationMs: number;
  /** --checkpoint: the same command sends the failed parts again. */
  checkpoint: boolean;
}

/** The run's record on stdout (a table on a terminal, JSON in a pipe), and where its failed, unconfirmed and invalid parts went. */
export async function printSummary(ctx: Context, run: RunResult): Promise<void> {
  const { namespace, id, failed, unconfirmed, checkpoint } = run;
  const summary = summaryOf(run);
  if (failed.count > 0) {
    const resend = resendCommandLine(failed, (input) => sameServiceCommand(ctx.argv, `stream parts ${shellWord(namespace)} --id ${shellWord(id)} ${shellWord(input)}`));
    ctx.io.warn(`${countOf(failed.count, 'part')} of failed batches written to ${failed.path}: ${resendHint(resend, checkpoint)}`);
  }
  if (unconfirmed.count > 0) {
    ctx.io.warn(`${countOf(unconfirmed.count, 'part')} of batches whose answer was lost written to ${unconfirmed.path}: the service may already hold them, and resending them may store them twice`);
  }
  if (summary.invalid_file) ctx.io.note(`${countOf(summary.invalid, 'invalid record')} written to ${summary.invalid_file}`);
  // The reader of stdout gone (`| head`) takes the record, not the exit code its counts give.
  await printResult(ctx.io, await ctx.outputFormat('single'), summary, recordView(summary)).catch(unlessReaderGone);
}

/**
 * A run cut short (Ctrl-C, SIGTERM) has said on stderr what it did; its record still goes to
 * stdout, for a script to read: in a pipe, or as the JSON or TSV asked for on a terminal (a
 * terminal's table would only repeat the stderr lines).
 */
export async function printInterruptedSummary(ctx: Context, run: RunResult): Promise<void> {
  const format = await ctx.outputFormat('single');
  if (ctx.io.stdoutIsTTY && format === 'table') return;
  const summary = summaryOf(run);
  await printResult(ctx.io, format, summary, recordView(summary)).catch(unlessReaderGone);
}

/** The bulk counts, as every bulk command names them, then what only a stream has. */
function summaryOf({ namespace, id, tally, failed, unconfirmed, invalid, durationMs }: RunResult) {
  const { lastRequestId, lastError: _shownOnTheStatusLine, ...counts } = tally;
  // Without --skip-invalid, the check counts the invalid parts it met before it was cut short.
  const invalidCount = invalid?.count ?? counts.invalid;
  return {
    ...counts,
    // An invalid part an earlier run set aside is read, and skipped by the checkpoint.
    read: counts.valid + invalidCount + (invalid?.earlier ?? 0),
    invalid: invalidCount,
    duration_ms: durationMs,
    namespace,
    id,
    last_request_id: lastRequestId,
    failed_file: failed.count > 0 ? failed.path : null,
    unconfirmed_file: unconfirmed.count > 0 ? unconfirmed.path : null,
    invalid_file: invalid && invalid.count > 0 ? invalid.path : null,
  };
}
