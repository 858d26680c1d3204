import type { VerbDecl } from '../declaration.js';

// `csafe webhooks verify`: its declaration — flags, help and examples.

export const webhooksVerify = {
  name: 'verify',
  description: 'Check a notification\'s Standard Webhooks signature and timestamp, as your receiver must',
  args: [{ name: '[body]', help: 'the raw body as received, byte for byte; `-` or none reads stdin' }],
  flags: {
    secret: { type: 'text', value: 'whsec_…', help: 'the endpoint\'s signing secret (default: CSAFE_WEBHOOK_SECRET)' },
    id: { type: 'text', value: 'id', help: 'the webhook-id header' },
    timestamp: { type: 'text', value: 'seconds', help: 'the webhook-timestamp header (Unix seconds)' },
    signature: { type: 'text', value: 'v1,…', help: 'the webhook-signature header: one or more space-separated v1,<base64> entries' },
    headers: { type: 'file', value: 'file', help: 'the request\'s headers instead: `Name: value` lines as captured (curl -D, a proxy log) or a JSON object' },
    tolerance: { type: 'text', value: 'duration', help: 'how far the timestamp may be from now, either way (default 5m; 0: not checked)' },
  },
  details: `
Exit 0 when one v1 entry of the signature is the HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed
with the secret (compared in constant time) and the timestamp is within --tolerance of now; exit 1
with one line saying why not (the signature does not match, the timestamp is 12 min old); exit 2
for a malformed secret or missing headers. Verify the raw bytes you received: a body parsed and
written again (other spacing, other key order) no longer matches.`,
  examples: [
    'csafe webhooks verify --secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw --id msg_p5jXN8AQM9LWM0D4loKWxJek --timestamp 1614265330 --signature v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE= --tolerance 0 examples/webhook-body.json',
    'CSAFE_WEBHOOK_SECRET=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw csafe webhooks verify --headers examples/webhook-headers.txt --tolerance 0 examples/webhook-body.json',
  ],
  environment: ['CSAFE_WEBHOOK_SECRET'],
} satisfies VerbDecl;
