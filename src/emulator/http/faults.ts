/**
 * Fault injection for every /v1 endpoint (never /_emulator): with probability `rate` a request
 * meets one of the chosen faults. The draws come from a PRNG seeded with `seed`, so a failing
 * run can be replayed with the same --seed (the same sequence of faults by arrival order).
 *
 * Not processed, so any retry is safe (but the client cannot tell for 408, 502 and drop):
 * - 429: Retry-After of 1 s, in the seconds form or the HTTP-date form (alternating at random).
 * - 503: safe to retry, as the spec says.
 * - 408: the service gave up waiting for the request (the connection is closed after it).
 * - 502: a gateway's page, in HTML: the request never reached the service.
 * - drop: the connection is closed before any answer (a reset before processing).
 * Processed, then the answer is lost or spoilt:
 * - reset: the connection is destroyed mid-response.
 * - timeout: the response is held for `delayMs` (longer than the client's timeout).
 * - 500: the service failed after applying the request.
 * - garbage: a 200 whose body is a proxy's HTML page, not the JSON the endpoint answers.
 * These make a client retry something that already happened, which is what idempotency keys are
 * for, or keep it as unconfirmed where the request is not replay-safe.
 */
export const FAULT_KINDS = ['429', '503', 'reset', 'timeout', '408', '502', 'drop', '500', 'garbage'] as const;
type FaultKind = (typeof FAULT_KINDS)[number];

/** What --faults draws from when not given: the faults of the first releases, which every test and script written for them expects. */
export const DEFAULT_FAULT_KINDS: readonly FaultKind[] = ['429', '503', 'reset', 'timeout'];

/** The faults of webhook deliveries (webhooks/deliveries.ts): an attempt dropped (not sent, retried as a failure) or sent late. */
export const DELIVERY_FAULT_KINDS = ['drop', 'delay'] as const;
export type DeliveryFaultKind = (typeof DELIVERY_FAULT_KINDS)[number];

export interface FaultSettings {
  rate: number;
  kinds: readonly FaultKind[];
  seed: number;
  /** How long a `timeout` fault holds the response. */
  delayMs: number;
}

/**
 * A fault met by one request. Besides those --faults draws, a test's script (scripted-faults.ts)
 * may place a 401 (the key refused part-way, not processed) and a cut (the connection closed while
 * the request body is still arriving, as an upload dropped mid-body).
 */
export type Fault =
  | { kind: '429'; retryAfter: string }
  | { kind: 'timeout'; delayMs: number }
  | { kind: Exclude<FaultKind, '429' | 'timeout'> | '401' | 'cut' };

/** mulberry32: a tiny, well-mixed 32-bit PRNG; the same seed gives the same sequence everywhere. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultDraw = () => Fault | undefined;

export function faultInjector(settings: FaultSettings | undefined, now: () => number): FaultDraw {
  if (settings === undefined || settings.rate <= 0 || settings.kinds.length === 0) return () => undefined;
  const random = mulberry32(settings.seed);
  return () => {
    if (random() >= settings.rate) return undefined;
    const kind = settings.kinds[Math.floor(random() * settings.kinds.length)]!;
    switch (kind) {
      case '429':
        return { kind, retryAfter: random() < 0.5 ? RETRY_AFTER_SECONDS : retryAfterDate(now()) };
      case 'timeout':
        return { kind, delayMs: settings.delayMs };
      default:
        return { kind };
    }
  };
}

/** A 429's Retry-After as delta-seconds: 1 s. */
export const RETRY_AFTER_SECONDS = '1';

/** The same wait as an HTTP date, which has whole seconds only: the next whole second plus one, so the wait is 1–2 s, never 0. */
export const retryAfterDate = (nowMs: number) => new Date((Math.floor(nowMs / 1000) + 2) * 1000).toUTCString();
