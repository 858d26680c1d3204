/**
 * The one retry policy, that of the service's own (Stainless) SDKs. Pure functions, so every rule
 * is unit-tested without a network.
 *
 * Retried: connection failures, timeouts, 408, 409, 429, every 5xx, and a 2xx whose body cannot be
 * read as what the caller relies on, not JSON (a proxy's page) or JSON of another shape: the
 * request may have been applied, as after a cut connection.
 * Never another status. A server-sent `x-should-retry: true|false` overrides the status rule.
 * Delay: `retry-after-ms`, then `Retry-After` (seconds or HTTP-date), else exponential backoff
 * min(cap, base·2^retry) less a random jitter of at most 25 %, so a retry never follows at once.
 */

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest server-requested wait we sleep through; beyond it the caller fails with the time to wait. */
  maxWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxWaitMs: 60_000,
};

const RETRYABLE_STATUS = new Set([408, 409, 429]);
const isRetryableStatus = (status: number) => RETRYABLE_STATUS.has(status) || status >= 500;

/** The share of the backoff the jitter may take off. */
const MAX_JITTER = 0.25;

export type Headers = Record<string, string | string[] | undefined>;

export type AttemptOutcome =
  | { kind: 'response'; status: number; headers: Headers }
  /** sent: whether any of the request may have reached the server (false for a refused connection). */
  | { kind: 'network-error'; sent: boolean }
  | { kind: 'timeout' }
  /** A 2xx whose body is not readable JSON, or not of the shape relied on: the work may be done, its answer is lost all the same. */
  | { kind: 'unreadable' };

/** Statuses by which the service says the request was not processed (spec: 429 and 503). */
const NOT_PROCESSED_STATUS = new Set([429, 503]);

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether the service may have processed a request whose attempt ended so: it answered 2xx, its
 * answer was lost (a timeout, a connection cut once the request was sent, a 2xx that cannot be read), or it answered 408,
 * 409 or a 5xx other than 503, any of which may come after the work was done. A refused
 * connection (nothing was sent), 429 and 503 (the spec's "not processed") and every other status
 * say it was not. The one rule behind both shouldRetry and mayHaveBeenApplied (errors.ts).
 */
export function mayHaveBeenProcessed(outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'timeout' || outcome.kind === 'unreadable') return true;
  if (outcome.kind === 'network-error') return outcome.sent;
  return outcome.status < 300 || (isRetryableStatus(outcome.status) && !NOT_PROCESSED_STATUS.has(outcome.status));
}

/**
 * replaySafe is false for a request that must not be applied twice (it creates something, or has
 * no idempotency key): it is retried only when the service cannot have processed it
 * (mayHaveBeenProcessed), that is after a refused connection, a 429 or a 503. The service may
 * still say otherwise with x-should-retry.
 */
export function shouldRetry(outcome: AttemptOutcome, replaySafe = true): boolean {
  if (outcome.kind === 'response') {
    const override = header(outcome.headers, 'x-should-retry');
    if (override === 'true') return true;
    if (override === 'false') return false;
    if (!isRetryableStatus(outcome.status)) return false;
  }
  return replaySafe || !mayHaveBeenProcessed(outcome);
}

/** Milliseconds the server asked us to wait, or undefined when it did not say (or said nonsense). */
export function serverRequestedDelay(headers: Headers, nowMs: number): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const retryAfter = header(headers, 'retry-after')?.trim();
  if (retryAfter === undefined || retryAfter === '') return undefined;
  if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** min(cap, base·2^retry), less random() × 25 % of it: random() in [0, 1) never takes the wait to 0. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(ceiling * (1 - MAX_JITTER * random()));
}

export interface RetryDecision {
  retry: boolean;
  delayMs: number;
  /** True when the delay came from the server (Retry-After), false for our own backoff. */
  serverRequested: boolean;
}

/** retry is 0 for the first retry (after the first attempt failed). */
export function decideRetry(
  outcome: AttemptOutcome,
  retry: number,
  policy: RetryPolicy,
  nowMs: number,
  random: () => number = Math.random,
  replaySafe = true,
): RetryDecision {
  if (retry >= policy.maxRetries || !shouldRetry(outcome, replaySafe)) return { retry: false, delayMs: 0, serverRequested: false };
  const requested = outcome.kind === 'response' ? serverRequestedDelay(outcome.headers, nowMs) : undefined;
  if (requested !== undefined) return { retry: true, delayMs: requested, serverRequested: true };
  return { retry: true, delayMs: backoffDelay(retry, policy, random), serverRequested: false };
}
