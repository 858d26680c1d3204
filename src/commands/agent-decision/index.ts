import type { GroupDecl } from '../declaration.js';
import { agentDecisionCreate } from './create-command.js';
import { agentDecisionSend } from './send-command.js';

// `csafe agent-decision`: your reviewers' verdicts fed back to the service (its docs; not in the spec).

export const agentDecisionGroup: GroupDecl = {
  name: 'agent-decision',
  description: "Your reviewers' verdicts, fed back to the service: was its own verdict right?",
  commands: [
    { ...agentDecisionCreate, run: async () => (await import('./create.js')).agentDecisionCreateAction },
    { ...agentDecisionSend, run: async () => (await import('./send.js')).agentDecisionSendAction },
  ],
};
