import { sendAgentDecision } from '../../api/agent-decisions.js';
import type { Context } from '../../context.js';
import { bodyFromFlags, parseFlags } from '../../core/cli/options.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { agentDecisionRequestSchema } from '../../schemas/agent-decisions.js';
import type { Action } from '../app.js';
import type { agentDecisionCreate } from './create-command.js';

// `csafe agent-decision create`: sends one reviewer's verdict, checked before it is sent.

const FLAG_OF_FIELD: Record<string, keyof typeof agentDecisionCreate.flags> = {
  content_type: 'contentType',
  decision: 'decision',
  policy_id: 'policyId',
  reference_id: 'referenceId',
  action: 'action',
  agent_type: 'agentType',
  comment: 'comment',
};

/** The action of the command declared in create-command.ts, loaded when it runs. */
export const agentDecisionCreateAction: Action<typeof agentDecisionCreate.flags> = async (ctx: Context, command, flags) => {
  const verdict = bodyFromFlags(agentDecisionRequestSchema, FLAG_OF_FIELD, parseFlags(flags, command.opts()), 'agent decision');
  const format = await ctx.outputFormat('single');
  const answer = await sendAgentDecision(await ctx.http(), verdict);
  await printResult(ctx.io, format, answer, recordView(answer));
};
