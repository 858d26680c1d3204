import { getDecision } from '../../api/decisions.js';
import type { Context } from '../../context.js';
import { waitTimeoutMs } from '../../core/wait.js';
import { positional, type Outcome, type Action } from '../app.js';
import { printDecision, settledOutcome, waitForDecision } from './show.js';

export async function decisionGetRun(ctx: Context, decisionId: string, options: { wait: boolean; timeoutMs: number }): Promise<Outcome | void> {
  const format = await ctx.outputFormat('single');
  if (!options.wait) return printDecision(ctx.io, format, await getDecision(await ctx.http(), decisionId));
  const decision = await waitForDecision(ctx, decisionId, options.timeoutMs);
  await printDecision(ctx.io, format, decision);
  return settledOutcome(ctx.io, decision);
}

/** The action of registerDecisionGet (get-command.ts), loaded when the command runs. */
export const decisionGetAction: Action = async (ctx, command) => {
  const [decisionId] = positional(command) as [string];
  const options = command.opts() as { wait?: boolean; timeout?: string };
  return decisionGetRun(ctx, decisionId, { wait: Boolean(options.wait), timeoutMs: waitTimeoutMs(options) });
};
