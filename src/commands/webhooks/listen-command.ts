import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { WEBHOOK_EVENT_TYPES } from '../../schemas/names.js';
import type { VerbDecl } from '../declaration.js';

// `csafe webhooks listen`: its declaration — flags, help and examples.

export const webhooksListen = {
  name: 'listen',
  description: "Receive the emulator's notifications on this machine and forward each to your receiver, until interrupted",
  flags: {
    forwardTo: { type: 'text', value: 'url', help: 'your receiver, e.g. http://localhost:3000/webhooks (without it, deliveries are printed and answered 204)' },
    events: { type: 'text', value: 'list', help: `only these event types, comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}` },
    forwardSecret: { type: 'text', value: 'whsec_…', help: "re-sign each forwarded notification with this secret (your receiver's), instead of passing the emulator's signature on" },
  },
  details: `
Against \`csafe emulator\` only: it registers a local address of its own as a webhook endpoint,
prints each delivery as it arrives (time, type, what it is about, webhook-id, your receiver's
status and latency; one JSON line each in a pipe), forwards it with its headers to --forward-to,
and answers the emulator with your receiver's status, so the emulator's retries behave as they
would against your receiver. When the emulator restarts or is reset, it registers again and says
so. Ctrl-C (or SIGTERM) removes the endpoint and exits 0; the endpoint is on a 30 s lease renewed
every 2 s, so one a killed listener leaves (kill -9) is removed by the emulator 30 s later.
Against the service, endpoints are set in its dashboard: it says so and exits 2.`,
  examples: [
    'csafe webhooks listen --forward-to http://localhost:3000/webhooks',
    'csafe webhooks listen --events workflow.succeeded,workflow.failed --json',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
