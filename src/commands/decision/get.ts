import type { Command } from 'commander';
import { getDecision } from '../../api/decisions.js';
import type { Context } from '../../context.js';
import { requireId } from '../../core/options.js';
import { waitOptions, waitTimeoutHelp, type WaitOptions } from '../../core/wait.js';
import { positional, type App, type Outcome } from '../app.js';
import { followDecision, printDecision } from './show.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/help.js';

export function registerDecisionGet(group: Command, app: App): void {
  const verb = group
    .command('get')
    .description('Show a decision: status, result and labels (GET /v1/decisions/{decision_id})')
    .argument('<decision-id>', 'as printed by `decision create`')
    .option('--wait', 'poll while it is PENDING, until SUCCESS or ERROR (exit 1 on ERROR)')
    .option('--timeout <duration>', waitTimeoutHelp('5m'))
    .addHelpText('after', `
The decision's fields (a result not known yet shows as none, fields the spec does not list as they
came), then its labels as a table: name, applied, explanation. --json prints it as returned.`);
  addHelpSections(verb, {
    examples: [
      'csafe decision get dec_123 --wait',
      "csafe decision get dec_123 --json | jq '.labels[] | select(.applied)'",
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => {
      const [decisionId] = positional(command) as [string];
      return decisionGetRun(ctx, decisionId, waitOptions(command.opts()));
    }));
}

export async function decisionGetRun(ctx: Context, decisionId: string, options: WaitOptions): Promise<Outcome | void> {
  requireId(decisionId, '<decision-id>', { command: 'csafe decision create', id: 'dec_…' });
  const format = await ctx.outputFormat('single');
  if (options.wait) return followDecision(ctx, format, decisionId, options.timeoutMs);
  await printDecision(ctx.io, format, await getDecision(await ctx.http(), decisionId));
}
