import { sendAgentDecision } from '../../api/agent-decisions.js';
import type { Context } from '../../context.js';
import { flagOfField } from '../../core/cli/flags.js';
import { parseFlags } from '../../core/cli/options.js';
import { UsageError } from '../../core/errors.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { agentDecisionRequestSchema, type AgentDecisionRequest } from '../../schemas/agent-decisions.js';
import type { Action } from '../app.js';
import type { agentDecisionCreate } from './create-command.js';

// `csafe agent-decision create`: sends one reviewer's verdict, checked before it is sent.

type Options = Partial<Record<keyof typeof agentDecisionCreate.flags, string>>;

const FLAG_OF_FIELD: Record<string, keyof typeof agentDecisionCreate.flags> = {
  content_type: 'contentType',
  decision: 'decision',
  policy_id: 'policyId',
  reference_id: 'referenceId',
  action: 'action',
  agent_type: 'agentType',
  comment: 'comment',
};

function verdictOf(options: Options): AgentDecisionRequest {
  const fields = Object.fromEntries(Object.entries(FLAG_OF_FIELD).flatMap(([field, flag]) => (options[flag] === undefined ? [] : [[field, options[flag]]])));
  const parsed = agentDecisionRequestSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UsageError(`${flagOfField(FLAG_OF_FIELD, issue.path[0]!) ?? 'agent decision'}: ${issue.message}`);
}

/** The action of the command declared in create-command.ts, loaded when it runs. */
export const agentDecisionCreateAction: Action<typeof agentDecisionCreate.flags> = async (ctx: Context, command, flags) => {
  const verdict = verdictOf(parseFlags(flags, command.opts()));
  const format = await ctx.outputFormat('single');
  const answer = await sendAgentDecision(await ctx.http(), verdict);
  await printResult(ctx.io, format, answer, recordView(answer));
};
