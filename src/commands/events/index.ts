import type { GroupDecl } from '../declaration.js';
import { eventsExample } from './example-command.js';
import { eventsSend } from './send/send-command.js';

// `csafe events`: the group of commands for backend events.

export const eventsGroup: GroupDecl = {
  name: 'events',
  description: 'Backend events: validate and send, resumable and ordered (POST /v1/async/events)',
  commands: [
    { ...eventsSend, run: async () => (await import('./send/send.js')).eventsSendAction },
    { ...eventsExample, run: async () => (await import('./example.js')).eventsExampleAction },
  ],
};
