import { postAgentDecision } from '../../api/agent-decisions.js';
import type { Context } from '../../context.js';
import { lineWithAnswer, sendEachLine, type CheckedRequest } from '../../core/bulk/line-requests.js';
import { shellWord } from '../../core/cli/command-line.js';
import { parseFlags } from '../../core/cli/options.js';
import { fileOrStdin } from '../../core/input/sources.js';
import type { StreamView } from '../../core/terminal/output.js';
import { countOf } from '../../core/terminal/words.js';
import { agentDecisionRequestSchema, type AgentDecisionRequest, type AgentDecisionResponse } from '../../schemas/agent-decisions.js';
import { parsedOrProblem } from '../../schemas/issues.js';
import { lineRunOutcome, positional, type Action } from '../app.js';
import type { agentDecisionSend } from './send-command.js';

// `csafe agent-decision send`: a JSONL file of reviewers' verdicts, a request each, checked before the first is sent.

/** What is printed of a verdict the service answered: its line, what it was about, and the service's answer. */
type VerdictResult = { line: number } & Pick<AgentDecisionRequest, 'reference_id' | 'policy_id' | 'decision'> & AgentDecisionResponse;

const verdictsView: StreamView<VerdictResult, VerdictResult> = {
  rows: (result) => [result],
  columns: [
    { header: 'LINE', value: (r) => String(r.line) },
    { header: 'REFERENCE_ID', value: (r) => r.reference_id },
    { header: 'POLICY_ID', value: (r) => r.policy_id },
    { header: 'DECISION', value: (r) => r.decision },
    { header: 'SAFETYKITCORRECT', value: (r) => (r.safetykitCorrect ? 'yes' : 'no'), style: (r, text, c) => (r.safetykitCorrect ? c.green(text) : c.yellow(text)) },
  ],
  order: (a, b) => a.line - b.line,
};

/** A line's verdict as the service takes it, or every field it would refuse. */
function checkVerdict(value: unknown): CheckedRequest<AgentDecisionRequest> {
  const checked = parsedOrProblem(agentDecisionRequestSchema, value);
  return 'data' in checked ? { request: checked.data } : checked;
}

/** The action of the command declared in send-command.ts, loaded when it runs. */
export const agentDecisionSendAction: Action<typeof agentDecisionSend.flags> = async (ctx: Context, command, flags) => {
  const options = parseFlags(flags, command.opts());
  const [file] = positional(command) as [string | undefined];
  let agreed = 0;
  const run = await sendEachLine(ctx, fileOrStdin(file, ctx.io.stdinIsTTY), options, {
    command: 'agent-decision',
    checkpointWhat: 'a csafe agent-decision send checkpoint',
    check: checkVerdict,
    send: postAgentDecision,
    // A verdict counted twice would weigh twice, and it carries no key a repeat could be known by.
    replaySafe: false,
    printed: (line, verdict, answer) => lineWithAnswer({ line, reference_id: verdict.reference_id, policy_id: verdict.policy_id, decision: verdict.decision }, answer),
    view: verdictsView,
    answered: (answer) => void (answer.safetykitCorrect && agreed++),
    spinner: { start: 'Sending verdicts…', progress: (counts) => `Sent ${counts.sent}, failed ${counts.failed}, unconfirmed ${counts.unconfirmed}` },
    summary: (counts) => `sent ${countOf(counts.sent, 'verdict')}: the service's own verdict agreed with ${agreed}, not with ${counts.sent - agreed}`,
    resendCommand: (input) => `agent-decision send ${shellWord(input)}`,
  });
  return lineRunOutcome(run);
};
