import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { ServiceVersion } from '../schemas/content.js';
import { CURRENT_VERSION } from '../schemas/content.js';
import { IMPORT_UPLOAD_TTL_SECONDS } from '../schemas/data.js';
import { DataDirRefusal } from './stores/data-dir.js';
import { DataStore } from './stores/data-store.js';
import type { FaultSettings } from './http/faults.js';
import type { RequestLogEntry } from './http/request-log.js';
import { createEmulatorServer } from './http/server.js';
import type { EmulatorConfig } from './config.js';
import { createState, type Stores } from './stores/state.js';
import { JobStore } from './stores/job-store.js';
import { OLDER_IMPORTS, type OlderImportRecord } from './older-imports/records.js';
import { BATCHES, type BatchRecord } from './batches/records.js';
import { DECISIONS, type StoredDecision } from './decisions/records.js';
import { DELETIONS, type StoredDeletion } from './deletions/records.js';
import { AGENT_DECISIONS, type StoredAgentDecision } from './agent-decisions/records.js';
import { StreamStore } from './stores/stream-store.js';
import { TokenTable } from './stores/token-table.js';
import { EventStore } from './stores/event-store.js';
import { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_RETRY_DELAYS_MS, Webhooks, type DeliverySettings } from './webhooks/deliveries.js';

/** How an emulator instance is started and stopped: its options, data directory, stores and server. */

export interface EmulatorOptions {
  host?: string;
  /** 0 picks a free port; the chosen one is in RunningEmulator.port and baseUrl. */
  port?: number;
  apiKey?: string;
  /** Added before every /v1 response. */
  latencyMs?: number;
  /** The version of POST /v1/content served when a request sends no Service-Version header. */
  accountVersion?: '2026-08-11' | '2026-08-05';
  /** Injected failures on /v1 endpoints; none when absent. */
  faults?: FaultSettings;
  /** How long a data or import request takes to process: queued for the first half, ingesting for the second. */
  processingDelayMs?: number;
  /** Lifetime of an import's pre-signed upload URL (12 hours, as the spec says, by default). */
  uploadTtlMs?: number;
  /** Where namespaces, requests, uploads, outputs, streams, older imports, batches and the signing secret persist; a private temporary directory when absent. */
  dataDir?: string;
  now?: () => number;
  /** How long a client may take to send a request's headers (60 s by default); then the connection is closed. */
  headersTimeoutMs?: number;
  /** How long a client may take to send the body of a request that is not an upload (60 s): then 408. */
  bodyTimeoutMs?: number;
  /** How long an upload may go without receiving a byte (5 minutes), however long it takes overall. */
  uploadIdleTimeoutMs?: number;
  /** How many of the latest requests GET /_emulator/requests keeps (10,000). */
  requestLogSize?: number;
  /** Told of each /v1 and /_storage request as it is answered, as the log records it. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Where and how notifications are sent (webhooks/deliveries.ts): none registered, the Standard Webhooks schedule, by default. */
  webhooks?: Partial<Omit<DeliverySettings, 'now'>>;
}

export interface RunningEmulator {
  baseUrl: string;
  apiKey: string;
  port: number;
  host: string;
  /** The request log, oldest first: what GET /_emulator/requests answers. */
  requests(): RequestLogEntry[];
  /** The whsec_… secret webhook deliveries are signed with. */
  webhookSecret: string;
  close(): Promise<void>;
}

export const DEFAULT_EMULATOR_API_KEY = 'sk_test_csafe_emulator';

const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 4477;
const DEFAULT_PROCESSING_DELAY_MS = 1000;
const DEFAULT_REQUEST_LOG_SIZE = 10_000;

const START_ERRORS = {
  port_in_use: () => 'the port is already in use',
  data_dir: (detail: string) => `cannot create the data directory: ${detail}`,
  data_dir_refused: (detail: string) => `refused the data directory: ${detail}`,
};

/** Why an emulator could not start, for the command to put in its own words. */
export class EmulatorStartError extends Error {
  constructor(
    readonly reason: 'port_in_use' | 'data_dir' | 'data_dir_refused',
    /**
     * For data_dir, what went wrong, e.g. "no such file or directory"; for data_dir_refused, why
     * the directory is not the emulator's to use and what to do.
     */
    readonly detail: string,
  ) {
    super(START_ERRORS[reason](detail));
    this.name = 'EmulatorStartError';
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? DEFAULT_HOST;
  const now = options.now ?? Date.now;
  const accountVersion: ServiceVersion = options.accountVersion ?? CURRENT_VERSION;
  const config: EmulatorConfig = {
    apiKey: options.apiKey ?? DEFAULT_EMULATOR_API_KEY,
    latencyMs: options.latencyMs ?? 0,
    accountVersion,
    now,
    startedAt: now(),
    processingDelayMs: options.processingDelayMs ?? DEFAULT_PROCESSING_DELAY_MS,
    uploadTtlMs: options.uploadTtlMs ?? IMPORT_UPLOAD_TTL_SECONDS * 1000,
    requestLogSize: options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE,
    headersTimeoutMs: options.headersTimeoutMs ?? 60_000,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 60_000,
    uploadIdleTimeoutMs: options.uploadIdleTimeoutMs ?? 5 * 60_000,
    ...(options.faults !== undefined && { faults: options.faults }),
  };
  const webhookSettings: DeliverySettings = {
    retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
    attemptTimeoutMs: DEFAULT_ATTEMPT_TIMEOUT_MS,
    initialUrls: [],
    ...options.webhooks,
    now,
  };
  const stores = await openStores(options.dataDir, config, webhookSettings).catch((error: unknown) => {
    throw error instanceof DataDirRefusal ? new EmulatorStartError('data_dir_refused', error.message) : new EmulatorStartError('data_dir', systemReason(error));
  });
  const { data, streams, events, olderImports, batches, webhooks } = stores;
  const state = createState(stores);
  const server = createEmulatorServer(config, state, options.onRequest);
  await listen(server, options.port ?? DEFAULT_PORT, host).catch(async (error: unknown) => {
    await Promise.all([events.close(), olderImports.close(), batches.close(), webhooks.close()]);
    await data.close();
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new EmulatorStartError('port_in_use', '') : error;
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    apiKey: config.apiKey,
    port,
    host,
    requests: () => [...state.requests],
    webhookSecret: webhooks.secret,
    close: async () => {
      await close(server);
      await Promise.all([streams.settle(), events.close(), olderImports.close(), batches.close(), webhooks.close()]);
      await data.close();
    },
  };
}

async function openStores(dataDir: string | undefined, config: EmulatorConfig, webhookSettings: DeliverySettings): Promise<Stores> {
  const data = await DataStore.open(dataDir);
  try {
    const [tokens, streams, events, decisions, olderImports, batches, deletions, agentDecisions, webhooks] = await Promise.all([
      TokenTable.open(data.root, config.apiKey, config.now()),
      StreamStore.open(data.root),
      EventStore.open(data.root),
      JobStore.open<StoredDecision>(data.root, DECISIONS),
      JobStore.open<OlderImportRecord>(data.root, OLDER_IMPORTS),
      JobStore.open<BatchRecord>(data.root, BATCHES),
      JobStore.open<StoredDeletion>(data.root, DELETIONS),
      JobStore.open<StoredAgentDecision>(data.root, AGENT_DECISIONS),
      Webhooks.open(data.root, webhookSettings),
    ]);
    return { tokens, data, streams, events, decisions, olderImports, batches, deletions, agentDecisions, webhooks };
  } catch (error) {
    await data.close();
    throw error;
  }
}

/** "no such file or directory" from "ENOENT: no such file or directory, mkdir '/proc/x'". */
const systemReason = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Also drops keep-alive connections, which would otherwise hold the process open. */
function close(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
