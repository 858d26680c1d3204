import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe agent-decision create`: its declaration — flags, help and examples.

export const agentDecisionCreate = {
  name: 'create',
  description: "Send your reviewer's verdict on one object under one policy (POST /v1/agent_decisions)",
  flags: {
    dryRun: DRY_RUN_FLAG,
    contentType: { type: 'text', value: 'type', help: 'the kind of object reviewed, e.g. listings: the namespace it is in' },
    decision: { type: 'text', value: 'decision', help: "the reviewer's verdict, e.g. match or no_match" },
    policyId: { type: 'text', value: 'id', help: 'the policy the verdict is about, e.g. violence' },
    referenceId: { type: 'text', value: 'id', help: 'the id of the object reviewed' },
    action: { type: 'text', value: 'action', help: 'what the reviewer did, e.g. removed' },
    agentType: { type: 'text', value: 'type', help: 'who reviewed, e.g. appeal, bpo_review, policy_expert' },
    comment: { type: 'text', value: 'text', help: 'a note from the reviewer' },
  },
  details: `
One request per object per policy. Prints safetykitCorrect: whether the service's own verdict
agreed with your reviewer's. Each flag is checked before sending (exit 2). A verdict carries no
key a repeat could be known by, so an answer lost on the way is not sent again (a verdict counted
twice would weigh twice): csafe says so, exit 1.`,
  examples: [
    'csafe agent-decision create --content-type listings --decision match --policy-id violence --reference-id listing-1',
    'csafe agent-decision create --content-type listings --decision no_match --policy-id spam --reference-id listing-2 --agent-type appeal --json',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
