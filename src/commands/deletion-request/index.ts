import type { GroupDecl } from '../declaration.js';
import { deletionRequestCreate } from './create-command.js';
import { deletionRequestSend } from './send-command.js';

// `csafe deletion-request`: data subjects' deletion requests (the service's docs; not in the spec).

export const deletionRequestGroup: GroupDecl = {
  name: 'deletion-request',
  description: "Data subjects' deletion requests: file one, kept once per external id",
  commands: [
    { ...deletionRequestCreate, run: async () => (await import('./create.js')).deletionRequestCreateAction },
    { ...deletionRequestSend, run: async () => (await import('./send.js')).deletionRequestSendAction },
  ],
};
