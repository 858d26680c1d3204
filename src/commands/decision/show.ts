import { getDecision } from '../../api/decisions.js';
import { errorMessage } from '../../api/responses.js';
import type { Context } from '../../context.js';
import type { IOStreams } from '../../core/terminal/io.js';
import { printResult, recordView, tableView, type Column, type OutputFormat } from '../../core/terminal/output.js';
import { shellWord } from '../../core/cli/command-line.js';
import { waitForOne } from '../../core/cli/wait.js';
import { DECISION_STATUSES, type Decision } from '../../schemas/decisions.js';
import type { Outcome } from '../app.js';

// How a decision is printed and waited for, shared by `decision create --wait` and `decision get` so
// both print it alike.

type DecisionLabel = NonNullable<Decision['labels']>[number];

const LABEL_COLUMNS: Column<DecisionLabel>[] = [
  { header: 'NAME', value: (label) => label.name },
  { header: 'APPLIED', value: (label) => (label.applied ? 'yes' : 'no'), style: (label, text, color) => (label.applied ? color.red(text) : text) },
  { header: 'EXPLANATION', value: (label) => label.explanation ?? '' },
];

/**
 * A decision as `key: value` lines (its status, result or `none`, metadata, and any field the spec
 * does not list, as it came), then its labels as a table; TSV is the record, its labels as JSON;
 * --json prints it as the service returned it, so `decision create --wait` and `decision get` print
 * the same; `type`, known only to create, shows in the table.
 */
export async function printDecision(io: IOStreams, format: OutputFormat, decision: Decision, type?: string): Promise<void> {
  const { decision_id, decision_status, result, labels, ...rest } = decision;
  // The JSON field names, so what a user reads here is what `--json | jq` finds.
  const fields = { decision_id, ...(type !== undefined && { type }), decision_status, result: result ?? 'none', ...rest };
  await printResult(io, format, decision, {
    table: (tableIO) => `${recordView(fields).table(tableIO)}\n${labels?.length ? tableView(labels, LABEL_COLUMNS).table(tableIO) : 'labels: none\n'}`,
    tsv: () => recordView({ ...fields, labels: labels ?? [] }).tsv(),
  });
}

/** Polls the decision while it is PENDING (spinner, --timeout → 124, Ctrl-C → 130, each with the command that checks again; `made`: as WaitSpec's). */
async function waitForDecision(ctx: Context, decisionId: string, timeoutMs: number, made: boolean): Promise<Decision> {
  const http = await ctx.http();
  return waitForOne(ctx, {
    timeoutMs,
    get: () => getDecision(http, decisionId),
    status: (decision) => decision.decision_status,
    statuses: DECISION_STATUSES,
    describe: `decision ${decisionId}`,
    progress: (decision) => decision.decision_status,
    checkAgain: `csafe decision get ${shellWord(decisionId)} --wait`,
    made,
  });
}

/**
 * Waits for the decision to settle and prints it; exit 1 when it ended ERROR or at a status
 * csafe does not know. `made`: the decision
 * is this run's own (create), its type as printDecision takes it; whatever ends the wait, the
 * command that checks on it is printed then.
 */
export async function followDecision(ctx: Context, format: OutputFormat, decisionId: string, timeoutMs: number, made?: { type: string }): Promise<Outcome> {
  const decision = await waitForDecision(ctx, decisionId, timeoutMs, made !== undefined);
  await printDecision(ctx.io, format, decision, made?.type);
  return settledOutcome(ctx.io, decision);
}

/** A settled decision's outcome: exit 1 unless it ended SUCCESS; for ERROR, with why when the service said. */
function settledOutcome(io: IOStreams, decision: Decision): Outcome {
  const failed = decision.decision_status !== DECISION_STATUSES.succeeded;
  const reason = errorMessage(decision);
  if (decision.decision_status === 'ERROR') io.warn(`decision ${decision.decision_id} ended ERROR${reason === undefined ? '' : `: ${reason}`}`);
  return { kind: 'followed', failed };
}
