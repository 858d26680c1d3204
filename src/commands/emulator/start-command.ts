import { DEFAULT_FAULT_KINDS, DELIVERY_FAULT_KINDS, FAULT_KINDS } from '../../emulator/http/faults.js';
import { CURRENT_VERSION, SERVICE_VERSIONS } from '../../schemas/names.js';
import type { VerbDecl } from '../declaration.js';

// `csafe emulator start`: its declaration — flags, help and examples.

const MILLISECONDS = 'expected a duration ≥ 0 such as 500ms or 2s (a plain number is milliseconds)';

export const emulatorStart = {
  name: 'start',
  description: 'Run a local Content Safety Service until interrupted',
  flags: {
    host: { type: 'text', value: 'host', help: 'address to listen on', default: '127.0.0.1' },
    port: { type: 'count', value: 'port', help: 'port; 0 picks a free one', min: 0, max: 65_535, default: 4477, expected: 'expected a port number from 0 to 65535' },
    latency: { type: 'count', value: 'duration', help: 'delay added to every API response, e.g. 50ms or 1s (a plain number is milliseconds)', min: 0, default: 0, expected: MILLISECONDS, unit: 'ms' },
    accountVersion: { type: 'choice', value: 'version', help: 'version served when a request names none', choices: SERVICE_VERSIONS, default: CURRENT_VERSION },
    faultRate: { type: 'text', value: 'r', help: 'fraction of /v1 requests that meet an injected fault, 0..1', default: '0' },
    faults: { type: 'text', value: 'list', help: `faults to inject, of ${FAULT_KINDS.join(',')}: 429, 503, 408, 502 and drop (the connection closed unanswered) before processing, reset (cut mid-answer), timeout, 500 and garbage (a 200 of HTML) after it`, default: DEFAULT_FAULT_KINDS.join(',') },
    seed: { type: 'count', value: 'n', help: 'seed of the fault sequence, to replay a failure', min: 0, default: 1 },
    faultDelay: { type: 'count', value: 'duration', help: 'how long a timeout fault holds its response (above the client timeout), e.g. 65s (a plain number is milliseconds)', min: 0, default: 65_000, expected: MILLISECONDS, unit: 'ms' },
    processingDelay: { type: 'text', value: 'duration', help: 'how long namespace data, older imports and batches take to process', default: '1s' },
    uploadTtl: { type: 'text', value: 'duration', help: 'lifetime of pre-signed namespace import upload URLs (older imports and batches: 1 hour)', default: '12h' },
    dataDir: { type: 'text', value: 'dir', help: 'keep namespaces, requests, uploads, streams, older imports, batches, access tokens and the URL signing secret here, across restarts' },
    requestLogSize: { type: 'count', value: 'n', help: 'how many of the latest requests GET /_emulator/requests keeps', min: 0, default: 10_000 },
    webhookUrl: { type: 'text', value: 'url', help: 'send signed notifications here when work ends (repeatable); more at run time: POST /_emulator/webhooks/endpoints', repeat: true },
    webhookSecret: { type: 'text', value: 'whsec_…', help: 'sign notifications with this secret (default: one made at the data directory\'s first start and kept there)' },
    printSecret: { type: 'switch', help: 'print the webhook signing secret with the address and key (in JSON, as webhook_secret)' },
    webhookRetryDelays: { type: 'text', value: 'list', help: 'waits before each retry of a notification not answered 2xx, e.g. 1s,2s (default: the Standard Webhooks schedule, 5s,5m,30m,2h,5h,10h,10h)' },
    webhookTimeout: { type: 'text', value: 'duration', help: 'how long a receiver may take to answer a notification before it is retried', default: '15s' },
    webhookFaultRate: { type: 'text', value: 'r', help: 'fraction of notification attempts that meet an injected fault, 0..1', default: '0' },
    webhookFaults: { type: 'text', value: 'list', help: `faults to inject into notifications: ${DELIVERY_FAULT_KINDS.join(',')} (dropped: not sent, retried as a failure; delayed: sent --webhook-fault-delay late)`, default: DELIVERY_FAULT_KINDS.join(',') },
    webhookFaultDelay: { type: 'text', value: 'duration', help: 'how late a delayed notification is sent', default: '5s' },
    // Global flags, read by this command too; declared here so its help lists them.
    apiKey: { type: 'text', value: 'key', help: 'the API key the emulator accepts (default: sk_test_csafe_emulator)' },
    json: { type: 'switch', help: 'print one line {"base_url", "api_key"} on stdout when ready (also -o json)' },
  },
  details: `
Each request is logged on stderr as it is answered (time, method, path, status, duration and
any fault) when stderr is a terminal; -q silences it, -v logs it in a pipe too.

Faults: 429 (Retry-After 1 s, seconds or HTTP-date) and 503 are answered without processing;
reset and timeout process the request first, then drop the connection mid-response or hold
the response for --fault-delay, so client retries meet idempotency-key de-duplication.

Without --data-dir, namespace data and streams live in a temporary directory removed on exit.
The first emulator on a new or empty --data-dir marks it with a .csafe-emulator file; a directory
that is not empty and has no marker is refused (reset and start-up clean-up remove files there).

The default API key is published: a --host other than loopback (127.0.0.0/8, ::1, localhost)
needs --api-key with a key of your own; a key must have at least 16 characters and no white
space or control characters.

Webhooks: when a data object has been processed (workflow.succeeded, workflow.failed), a decision
completes (decision.completed) or a batch ends (batch.completed), each endpoint gets a POST signed
as Standard Webhooks sign them (webhook-id, webhook-timestamp, webhook-signature); one not
answered 2xx within --webhook-timeout is tried again after each of --webhook-retry-delays, under
the same webhook-id. GET /_emulator/webhooks lists the deliveries and their attempts; POST
/_emulator/webhooks/trigger {"type"} sends one now. Deliveries go in the background: a slow
receiver never slows a request.

Inspection: GET /_emulator/streams/NS lists a namespace's stream ids, and
GET /_emulator/streams/NS/ID shows a stream's address and its parts as received, with their labels.

Older operations: POST /v1/import and POST /v1/batches hand out upload URLs valid 1 hour;
POST /_emulator/batches/ID/cancel cancels a batch (the spec shows no cancel call). Quirks
(POST /_emulator/quirks): expired_upload_urls N, expired_download_urls N, failing_uploads N, failing_requests N,
refused_requests N (401, as a revoked key), held_requests N (answered on POST /_emulator/release), spec_only true (the docs-only routes answer 404); GET /_emulator/in_flight counts /v1 requests being served.

Control endpoints (/_emulator/*) need the API key; requests carrying another site's
Origin are refused (403), and JSON endpoints take only Content-Type: application/json (415).
Slow clients are cut off: headers must arrive within 60 s, other bodies within 60 s,
and an upload may not stall for 5 minutes. JSON nested deeper than 64 levels is a 400.

Without --json, the address and key are printed for people, with the two export lines to paste.`,
  examples: [
    'csafe emulator start',
    'csafe emulator start --port 0 --api-key sk_test_ci_0123456789 --fault-rate 0.1 --seed 7',
    'csafe emulator start --port 0 --webhook-url http://127.0.0.1:3000/webhooks --print-secret --json',
  ],
  environment: [],
} satisfies VerbDecl;
