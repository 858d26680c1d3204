import * as z from 'zod';
import { FAULT_KINDS, RETRY_AFTER_SECONDS, retryAfterDate, type Fault } from './faults.js';
import { pathMatches } from './path-pattern.js';

/**
 * Faults a test places where it wants them (POST /_emulator/faults): "skip the first S requests
 * that match METHOD PATH, then the next N meet this fault". Where --fault-rate draws faults at
 * random, a script puts one on the one request a test is about: the create call of a command, its
 * second batch, the upload after the create. Each entry is used up as it is met; a reset clears
 * the script.
 */

/** What a script may place beyond --faults: a key refused part-way (401) and an upload cut off mid-body. */
const SCRIPTED_FAULT_KINDS = [...FAULT_KINDS, '401', 'cut'] as const;

/** The object store answers in XML and holds no JSON errors: only faults of the connection or of time apply there. */
const STORE_FAULT_KINDS: ReadonlySet<string> = new Set(['drop', 'cut', 'reset', 'timeout']);

const count = z.number({ error: 'expected a whole number' }).int({ error: 'expected a whole number' }).min(0, { error: 'expected a whole number ≥ 0' });

const entrySchema = z
  .strictObject({
    kind: z.enum(SCRIPTED_FAULT_KINDS, { error: `expected one of ${SCRIPTED_FAULT_KINDS.join(', ')}` }),
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE'], { error: 'expected GET, POST, PUT or DELETE' }).optional(),
    path: z.string().startsWith('/', { error: 'expected a path pattern starting with /, e.g. /v1/data/:namespace' }).max(1000),
    skip: count.default(0),
    times: count.min(1, { error: 'expected a whole number ≥ 1' }).default(1),
    /** For 429: Retry-After as delta-seconds (1) or as an HTTP date 1–2 s ahead. */
    retry_after: z.enum(['seconds', 'date'], { error: 'expected seconds or date' }).default('seconds'),
    /** For timeout: how long the answer is held. */
    delay_ms: count.max(600_000).default(30_000),
  })
  .refine((entry) => !entry.path.startsWith('/_storage/') || STORE_FAULT_KINDS.has(entry.kind), {
    error: `on the object store (/_storage/…) only ${[...STORE_FAULT_KINDS].join(', ')} apply`,
    path: ['kind'],
  })
  .refine((entry) => !entry.path.startsWith('/_emulator/') || takesScriptedFaults(entry.path), { error: 'of the emulator\'s own routes only /_emulator/webhooks/… take faults', path: ['path'] });

/**
 * The paths a script may fault: the service's, the object store's, and the emulator's webhook
 * routes, which `webhooks trigger` and `webhooks listen` call as their service. Never the rest of
 * /_emulator: a test must still be able to look, reset and script.
 */
export const takesScriptedFaults = (path: string) => path === '/v1' || path.startsWith('/v1/') || path.startsWith('/_storage/') || path.startsWith('/_emulator/webhooks/');

export const scriptSchema = z.strictObject({ faults: z.array(entrySchema).min(1).max(100) });

export type ScriptedFault = z.output<typeof entrySchema>;

/** The fault the first live entry matching this request places on it, using up one of its skips or times. */
export function takeScriptedFault(script: ScriptedFault[], method: string, path: string, now: number): Fault | undefined {
  const index = script.findIndex((entry) => (entry.method === undefined || entry.method === method) && pathMatches(entry.path, path));
  if (index < 0) return undefined;
  const entry = script[index]!;
  if (entry.skip > 0) {
    entry.skip--;
    return undefined;
  }
  if (--entry.times === 0) script.splice(index, 1);
  return faultOf(entry, now);
}

function faultOf(entry: ScriptedFault, now: number): Fault {
  switch (entry.kind) {
    case '429':
      return { kind: '429', retryAfter: entry.retry_after === 'seconds' ? RETRY_AFTER_SECONDS : retryAfterDate(now) };
    case 'timeout':
      return { kind: 'timeout', delayMs: entry.delay_ms };
    default:
      return { kind: entry.kind };
  }
}
