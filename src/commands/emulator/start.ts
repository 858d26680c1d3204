import { once } from 'node:events';
import type { Command } from 'commander';
import { z } from 'zod';
import { parseDuration, parsePositiveDuration } from '../../core/duration.js';
import { CsafeError } from '../../core/errors.js';
import { integerFlag, parseOptions } from '../../core/options.js';
import { recordView, toNdjsonLine } from '../../core/output.js';
import { FAULT_KINDS } from '../../emulator/http/faults.js';
import { CURRENT_VERSION, SERVICE_VERSIONS } from '../../schemas/content.js';
import type { App } from '../app.js';
import { addHelpSections } from '../../core/help.js';

const optionsSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: integerFlag(0, 65_535, 'expected a port number from 0 to 65535').default(4477),
  latency: integerFlag(0, undefined, 'expected milliseconds, a whole number ≥ 0').default(0),
  accountVersion: z.enum(SERVICE_VERSIONS, { error: `expected ${SERVICE_VERSIONS.join(' or ')}` }).default(CURRENT_VERSION),
  faultRate: z.coerce.number({ error: 'expected a fraction between 0 and 1' }).min(0).max(1).default(0),
  faults: z
    .string()
    .default(FAULT_KINDS.join(','))
    .transform((list) => list.split(',').map((kind) => kind.trim()))
    .pipe(z.array(z.enum(FAULT_KINDS, { error: `expected a comma-separated list of ${FAULT_KINDS.join(', ')}` })).min(1)),
  seed: integerFlag(0).default(1),
  faultDelay: integerFlag(0, undefined, 'expected milliseconds, a whole number ≥ 0').default(65_000),
  processingDelay: z.string().default('1s').transform((text) => parseDuration(text, '--processing-delay')),
  // An upload URL that expires as it is handed out could never be used; a processing delay of 0 means at once.
  uploadTtl: z.string().default('12h').transform((text) => parsePositiveDuration(text, '--upload-ttl')),
  dataDir: z.string().min(1, { error: 'expected a directory' }).optional(),
  requestLogSize: integerFlag(0).default(10_000),
});

export function registerEmulatorStart(group: Command, app: App): void {
  const verb = group
    .command('start')
    .description('Run a local Content Safety Service until interrupted')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port; 0 picks a free one', '4477')
    .option('--latency <ms>', 'delay added to every API response', '0')
    .option('--account-version <version>', 'version served when a request names none', CURRENT_VERSION)
    .option('--fault-rate <r>', 'fraction of /v1 requests that meet an injected fault, 0..1', '0')
    .option('--faults <list>', `faults to inject: ${FAULT_KINDS.join(',')}`, FAULT_KINDS.join(','))
    .option('--seed <n>', 'seed of the fault sequence, to replay a failure', '1')
    .option('--fault-delay <ms>', 'how long a timeout fault holds its response (above the client timeout)', '65000')
    .option('--processing-delay <duration>', 'how long namespace data, older imports and batches take to process', '1s')
    .option('--upload-ttl <duration>', 'lifetime of pre-signed namespace import upload URLs (older imports and batches: 1 hour)', '12h')
    .option('--data-dir <dir>', 'keep namespaces, requests, uploads, streams, older imports, batches and the URL signing secret here, across restarts')
    .option('--request-log-size <n>', 'how many of the latest requests GET /_emulator/requests keeps', '10000')
    // Global flags, read by this command too; declared here so its help lists them.
    .option('--api-key <key>', 'the API key the emulator accepts (default: sk_test_csafe_emulator)')
    .option('--json', 'print one line {"base_url", "api_key"} on stdout when ready (also -o json)')
    .addHelpText('after', `
Faults: 429 (Retry-After 1 s, seconds or HTTP-date) and 503 are answered without processing;
reset and timeout process the request first, then drop the connection mid-response or hold
the response for --fault-delay, so client retries meet idempotency-key de-duplication.

Without --data-dir, namespace data and streams live in a temporary directory removed on exit.

Inspection: GET /_emulator/streams/NS lists a namespace's stream ids, and
GET /_emulator/streams/NS/ID shows a stream's address and its parts as received, with their labels.

Older operations: POST /v1/import and POST /v1/batches hand out upload URLs valid 1 hour;
POST /_emulator/batches/ID/cancel cancels a batch (the spec shows no cancel call). Quirks
(POST /_emulator/quirks): expired_upload_urls N, expired_download_urls N, failing_uploads N, failing_requests N.

Control endpoints (/_emulator/*) need the API key; requests carrying another site's
Origin are refused (403), and JSON endpoints take only Content-Type: application/json (415).
Slow clients are cut off: headers must arrive within 60 s, other bodies within 60 s,
and an upload may not stall for 5 minutes. JSON nested deeper than 64 levels is a 400.

Without --json, the address and key are printed for people, with the two export lines to paste.`);
  addHelpSections(verb, {
    examples: [
      'csafe emulator start',
      'csafe emulator start --port 0 --json',
      'csafe emulator start --port 0 --api-key sk_test_ci --fault-rate 0.1 --seed 7',
    ],
    environment: [],
  })
    .action(app.action(async (ctx, command) => {
      const options = parseOptions(optionsSchema, command.opts());
      const { startEmulator, EmulatorStartError } = await import('../../emulator/index.js');
      const emulator = await startEmulator({
        host: options.host,
        port: options.port,
        latencyMs: options.latency,
        accountVersion: options.accountVersion,
        faults: { rate: options.faultRate, kinds: options.faults, seed: options.seed, delayMs: options.faultDelay },
        processingDelayMs: options.processingDelay,
        uploadTtlMs: options.uploadTtl,
        ...(options.dataDir !== undefined && { dataDir: options.dataDir }),
        requestLogSize: options.requestLogSize,
        ...(ctx.flags.apiKey !== undefined && { apiKey: ctx.flags.apiKey }),
      }).catch((error: unknown) => {
        if (!(error instanceof EmulatorStartError)) throw error;
        throw new CsafeError(
          error.reason === 'port_in_use'
            ? `port ${options.port} on ${options.host} is already in use; pass --port 0 to pick a free port, or another --port`
            : `--data-dir ${options.dataDir ?? '(a temporary directory)'}: cannot create or use the directory: ${error.detail}`,
        );
      });
      const ready = { base_url: emulator.baseUrl, api_key: emulator.apiKey };
      // In JSON, one line that a script can read as soon as it arrives (the emulator runs on after it).
      const format = ctx.flagOutputFormat('single');
      if (format === 'tsv') await ctx.io.out(recordView(ready).tsv());
      else if (format !== 'table') await ctx.io.out(toNdjsonLine(ready));
      else {
        await ctx.io.out(
          `Content Safety emulator listening on ${emulator.baseUrl}\nAPI key: ${emulator.apiKey}\n\n` +
            `  export CSAFE_BASE_URL=${emulator.baseUrl}\n  export CSAFE_API_KEY=${emulator.apiKey}\n`,
        );
      }
      if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
      await emulator.close();
      ctx.io.note('emulator stopped');
    }));
}
