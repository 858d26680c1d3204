import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { WEBHOOK_EVENT_TYPES } from '../../schemas/names.js';
import type { VerbDecl } from '../declaration.js';

// `csafe webhooks trigger`: its declaration — flags, help and examples.

export const webhooksTrigger = {
  name: 'trigger',
  description: 'Have the emulator send one event to its webhook endpoints now: a sample, or your own data',
  args: [{ name: '<event>', help: `the event type: ${WEBHOOK_EVENT_TYPES.join(', ')}`, choices: WEBHOOK_EVENT_TYPES }],
  flags: {
    dryRun: DRY_RUN_FLAG,
    namespace: { type: 'text', value: 'namespace', help: 'with a workflow event: the namespace it is about (default listings)' },
    id: { type: 'text', value: 'id', help: 'the object a workflow event is about (default listing-1), or the decision or batch id of a legacy one (dec_sample, bat_sample)' },
    data: { type: 'text', value: 'json|@file.json', help: 'your own data: the fields of a workflow event (over the sample\'s), the data of a decision or batch event' },
  },
  details: `
Against \`csafe emulator\` only (the service sends its events itself): prints the webhook-id the
event goes out under and how many endpoints it was queued for; GET /_emulator/webhooks shows how
each delivery went. Endpoints come from \`emulator start --webhook-url\` or POST
/_emulator/webhooks/endpoints.`,
  examples: [
    'csafe --emulator webhooks trigger workflow.succeeded --namespace listings --id listing-7',
    'csafe --emulator webhooks trigger decision.completed --data \'{"decision_id":"dec_1","decision_status":"SUCCESS","result":"match"}\' --json',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
