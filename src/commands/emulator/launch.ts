// How `emulator start` and `emulator exec` start the emulator from their flags.

import type { Command } from 'commander';
import * as z from 'zod';
import { parseDuration, parsePositiveDuration } from '../../core/cli/duration.js';
import { CsafeError, UsageError } from '../../core/errors.js';
import { optionsSchema, parseOptions } from '../../core/cli/options.js';
import { isLoopback } from '../../core/config/settings.js';
import type { EmulatorStartError } from '../../emulator/index.js';
import type { RequestLogEntry } from '../../emulator/http/request-log.js';
import { DEFAULT_FAULT_KINDS, DELIVERY_FAULT_KINDS, FAULT_KINDS } from '../../emulator/http/faults.js';
import type { Context } from '../../context.js';
import { usableSecret } from '../../core/webhooks/signature.js';
import { httpUrlSchema } from '../../schemas/webhooks.js';
import type { emulatorStart } from './start-command.js';

/** A share of requests or attempts that meet a fault. */
const fraction = z.coerce.number({ error: 'expected a fraction between 0 and 1' }).min(0).max(1).default(0);

/** A comma-separated list of fault kinds, `drawn` (all of them) by default. */
const kindList = <K extends string>(kinds: readonly [K, ...K[]], drawn: readonly K[] = kinds) =>
  z
    .string()
    .default(drawn.join(','))
    .transform((list) => list.split(',').map((kind) => kind.trim()))
    .pipe(z.array(z.enum(kinds, { error: `expected a comma-separated list of ${kinds.join(', ')}` })).min(1));

/** The flags' checks, with those of values that are more than a whole number or a choice. */
const startOptionsSchema = (flags: LaunchFlags) =>
  optionsSchema(flags).extend({
  host: z.string().min(1).default('127.0.0.1'),
  faultRate: fraction,
  faults: kindList(FAULT_KINDS, DEFAULT_FAULT_KINDS),
  processingDelay: z.string().default('1s').transform((text) => parseDuration(text, '--processing-delay')),
  // An upload URL that expires as it is handed out could never be used; a processing delay of 0 means at once.
  uploadTtl: z.string().default('12h').transform((text) => parsePositiveDuration(text, '--upload-ttl')),
  dataDir: z.string().min(1, { error: 'expected a directory' }).optional(),
  webhookUrl: z.array(httpUrlSchema).default([]),
  webhookRetryDelays: z
    .string()
    .optional()
    .transform((list) => list?.split(',').map((text) => parseDuration(text, '--webhook-retry-delays'))),
  webhookTimeout: z.string().default('15s').transform((text) => parsePositiveDuration(text, '--webhook-timeout')),
  webhookFaultRate: fraction,
  webhookFaults: kindList(DELIVERY_FAULT_KINDS),
  webhookFaultDelay: z.string().default('5s').transform((text) => parseDuration(text, '--webhook-fault-delay')),
});

/** The flags that say how the emulator runs: those of `emulator start` but what it prints when ready. */
export type LaunchFlags = Omit<typeof emulatorStart.flags, 'json' | 'printSecret'>;

type StartOptions = z.infer<ReturnType<typeof startOptionsSchema>>;

/** Long enough not to be guessed by someone trying keys against an emulator they can reach. */
const MIN_API_KEY_LENGTH = 16;

/**
 * The key the emulator will accept, checked before it listens. The default key is published (in
 * the README and --help), so it is only for an emulator that nothing but this machine can reach.
 */
function checkApiKey(host: string, apiKey: string | undefined, publishedKey: string): void {
  if (apiKey === undefined) {
    if (isLoopback(host)) return;
    throw new UsageError(
      `--host ${host} is not a loopback address and the default API key is published, so anyone who can reach it could use the emulator; ` +
        `pass --api-key with a key of your own (at least ${MIN_API_KEY_LENGTH} characters), or --host 127.0.0.1`,
    );
  }
  const problem = apiKeyProblem(apiKey);
  if (problem !== undefined) {
    throw new UsageError(`--api-key ${problem}: expected a key of at least ${MIN_API_KEY_LENGTH} characters without white space`);
  }
  // Given explicitly, say copied from the README's export lines, it is still the published one.
  if (apiKey === publishedKey && !isLoopback(host)) {
    throw new UsageError(`--api-key is the published default key, and --host ${host} is not a loopback address, so anyone who can reach it could use the emulator; pass a key of your own`);
  }
}

function apiKeyProblem(apiKey: string): string | undefined {
  if (apiKey === '') return 'is empty';
  if (/\s/.test(apiKey)) return 'contains white space';
  // No client can send it (an Authorization header carries none), so the emulator could never be used.
  if (/\p{Cc}/u.test(apiKey)) return 'contains a control character';
  if (apiKey.length < MIN_API_KEY_LENGTH) return `has ${apiKey.length} characters`;
  return undefined;
}

function startFailure(error: EmulatorStartError, options: StartOptions): CsafeError {
  const dataDir = `--data-dir ${options.dataDir ?? '(a temporary directory)'}`;
  switch (error.reason) {
    case 'port_in_use':
      return new CsafeError(`port ${options.port} on ${options.host} is already in use; pass --port 0 to pick a free port, or another --port`);
    case 'data_dir_refused':
      return new UsageError(`${dataDir}: ${error.detail}`);
    case 'data_dir':
      return new CsafeError(`${dataDir}: cannot create or use the directory: ${error.detail}`);
  }
}

/** `10:42:07 POST /v1/content 200 12 ms`, and the fault it met when one was injected. */
export function requestLine(entry: RequestLogEntry): string {
  const fault = entry.fault === null ? '' : ` (fault: ${entry.fault})`;
  return `${entry.time.slice(11, 19)} ${entry.method} ${entry.path} ${entry.status} ${Math.round(entry.duration_ms)} ms${fault}`;
}

/** What launching needs besides the flags: where each request is reported, when at all. */
export interface LaunchOptions {
  onRequest?: (entry: RequestLogEntry) => void;
}

/**
 * An emulator started in this process from the `emulator start` flags (which `emulator exec`
 * shares): the flags checked, the API key checked against the host, a failure to start said as
 * csafe says it. The options parsed are returned with it.
 */
export async function launchEmulator(ctx: Context, command: Command, flags: LaunchFlags, launch: LaunchOptions = {}) {
  const options = parseOptions(startOptionsSchema(flags), command.opts());
  const { startEmulator, EmulatorStartError, DEFAULT_EMULATOR_API_KEY } = await import('../../emulator/index.js');
  checkApiKey(options.host, ctx.flags.apiKey, DEFAULT_EMULATOR_API_KEY);
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
    webhooks: {
      initialUrls: options.webhookUrl,
      attemptTimeoutMs: options.webhookTimeout,
      faults: { rate: options.webhookFaultRate, kinds: options.webhookFaults, delayMs: options.webhookFaultDelay, seed: options.seed },
      ...(options.webhookSecret !== undefined && { secret: usableSecret(options.webhookSecret, '--webhook-secret') }),
      ...(options.webhookRetryDelays !== undefined && { retryDelaysMs: options.webhookRetryDelays }),
    },
    ...(ctx.flags.apiKey !== undefined && { apiKey: ctx.flags.apiKey }),
    ...(launch.onRequest !== undefined && { onRequest: launch.onRequest }),
  }).catch((error: unknown) => {
    throw error instanceof EmulatorStartError ? startFailure(error, options) : error;
  });
  return { emulator, options };
}
