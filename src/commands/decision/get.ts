import { getDecision } from '../../api/decisions.js';
import type { Context } from '../../context.js';
import { requireId } from '../../core/cli/options.js';
import { waitOptions, type WaitOptions } from '../../core/cli/wait.js';
import { positional, type Outcome } from '../app.js';
import { followDecision, printDecision } from './show.js';
import type { Action } from '../app.js';
import { parseFlags } from '../../core/cli/options.js';
import type { decisionGet } from './get-command.js';

// `csafe decision get`: shows a decision, waiting for it to settle when asked.

export async function decisionGetRun(ctx: Context, decisionId: string, options: WaitOptions): Promise<Outcome | void> {
  requireId(decisionId, '<decision-id>', { command: 'csafe decision create', id: 'dec_…' });
  const format = await ctx.outputFormat('single');
  if (options.wait) return followDecision(ctx, format, decisionId, options.timeoutMs);
  await printDecision(ctx.io, format, await getDecision(await ctx.http(), decisionId));
}

/** The action of the command declared in get-command.ts, loaded when it runs. */
export const decisionGetAction: Action<typeof decisionGet.flags> = async (ctx, command, flags) => {
      const [decisionId] = positional(command) as [string];
      return decisionGetRun(ctx, decisionId, waitOptions(parseFlags(flags, command.opts())));
    };
