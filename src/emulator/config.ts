import type { ServiceVersion } from '../schemas/content.js';
import type { FaultSettings } from './http/faults.js';

/** What an emulator instance is configured with, fixed for its life. */
export interface EmulatorConfig {
  apiKey: string;
  latencyMs: number;
  /** The version of POST /v1/content served when a request sends no Service-Version header. */
  accountVersion: ServiceVersion;
  now: () => number;
  startedAt: number;
  faults?: FaultSettings;
  /** A data or import request is queued for the first half of this, ingesting for the second. */
  processingDelayMs: number;
  /** Lifetime of an import's pre-signed upload URL. */
  uploadTtlMs: number;
  /** How many of the latest requests the request log keeps. */
  requestLogSize: number;
  /** The limits on slow clients (see EmulatorOptions). */
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  uploadIdleTimeoutMs: number;
}
