import { batchFlags, lineRequestFlags } from '../../core/cli/bulk-flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe agent-decision send`: its declaration — flags, help and examples.

export const agentDecisionSend = {
  name: 'send',
  description: "Send a JSONL file of your reviewers' verdicts, one request each (POST /v1/agent_decisions)",
  args: [{ name: '[file]', help: 'JSON Lines, one verdict a line: {content_type, decision, policy_id, reference_id, action?, agent_type?, comment?}; `-` or none reads stdin' }],
  flags: withUnconfirmed(lineRequestFlags('agent-decision', 'verdicts')),
  details: `
Every line is checked before the first request; an invalid one is named as file:line: field and
nothing is sent (exit 2), unless --skip-invalid sets it aside. Prints each line's
safetykitCorrect (whether the service's own verdict agreed with your reviewer's) in input order,
one JSON line each in a pipe, one array with --json, a table on a terminal; stderr says how many
the service agreed with. A verdict carries no key a repeat could be known by, so a line whose
answer was lost is not sent again (a verdict counted twice would weigh twice) but written to the
--unconfirmed file, which --checkpoint counts as done (exit 5, or 1 when none was acknowledged);
a line that failed otherwise goes to the --failed file, as read: resend it, or with --checkpoint
run the same command again (not both: that would send it twice). Ctrl-C (exit 130) or SIGTERM (143) waits for the answers in flight, then prints the
command that continues: with --checkpoint the same one, else the same one with --from-line.`,
  examples: [
    'csafe agent-decision send examples/agent-decisions.jsonl',
    "csafe agent-decision send examples/agent-decisions.jsonl --json | jq '[.[] | select(.safetykitCorrect | not)]'",
    'csafe agent-decision send examples/agent-decisions.jsonl --checkpoint verdicts.json --concurrency 8',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;

/** The shared flags, with --unconfirmed after --failed: a verdict is not safe to send twice. */
function withUnconfirmed<F extends ReturnType<typeof lineRequestFlags>>(flags: F) {
  const unconfirmed = batchFlags.unconfirmed('append each line whose answer was lost (the service may have counted it): not safe to resend', 'agent-decision');
  const { concurrency, failed, ...rest } = flags;
  return { concurrency, failed, unconfirmed, ...rest };
}
