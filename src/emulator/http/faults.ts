/**
 * Fault injection for every /v1 endpoint (never /_emulator): with probability `rate` a request
 * meets one of the chosen faults. The draws come from a PRNG seeded with `seed`, so a failing
 * run can be replayed with the same --seed (the same sequence of faults by arrival order).
 *
 * - 429: not processed; Retry-After of 1 s, in the seconds form or the HTTP-date form (alternating at random).
 * - 503: not processed; safe to retry.
 * - reset: processed (events are ingested), then the connection is destroyed mid-response.
 * - timeout: processed, then the response is held for `delayMs` (longer than the client's timeout).
 * The last two make a client retry something that already happened, which is what idempotency keys are for.
 */
export const FAULT_KINDS = ['429', '503', 'reset', 'timeout'] as const;
type FaultKind = (typeof FAULT_KINDS)[number];

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

export type Fault =
  | { kind: '429'; retryAfter: string }
  | { kind: '503' }
  | { kind: 'reset' }
  | { kind: 'timeout'; delayMs: number };

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
        return { kind, retryAfter: random() < 0.5 ? '1' : inOneSecond(now()) };
      case 'timeout':
        return { kind, delayMs: settings.delayMs };
      default:
        return { kind };
    }
  };
}

/** An HTTP date has whole seconds only: the next whole second plus one, so the wait is 1–2 s, never 0. */
const inOneSecond = (nowMs: number) => new Date((Math.floor(nowMs / 1000) + 2) * 1000).toUTCString();
