import * as z from 'zod';
import { CsafeError, mayHaveBeenApplied, NotFoundError } from '../core/errors.js';
import type { HttpClient, RequestSpec } from '../core/http/client.js';
import { checkedAnswerOf } from './responses.js';

/** The emulator's control routes (not the service's): whether one is there, and clearing what it holds. */

const healthSchema = z.looseObject({ status: z.string(), uptime_s: z.number().optional() });
const resetSchema = z.looseObject({ status: z.string() });

export type EmulatorHealth = z.infer<typeof healthSchema>;

/** GET /_emulator/health; a service that has no such route is not an emulator, and said so. */
export async function emulatorHealth(http: HttpClient): Promise<EmulatorHealth> {
  return controlCall(http, 'GET', '/_emulator/health', healthSchema);
}

/**
 * POST /_emulator/reset: every namespace, request, upload, stream, event and batch dropped. Sent
 * again when its answer is lost or unreadable: a second reset leaves the emulator as the first did.
 */
export async function resetEmulator(http: HttpClient): Promise<z.infer<typeof resetSchema>> {
  return controlCall(http, 'POST', '/_emulator/reset', resetSchema);
}

const triggeredSchema = z.looseObject({ type: z.string(), webhook_id: z.string(), deliveries: z.number() });
export type TriggeredWebhook = z.infer<typeof triggeredSchema>;

/** What `webhooks trigger` asks for: an event type, what it is about, and the caller's own data. */
export interface WebhookTrigger {
  type: string;
  namespace?: string;
  id?: string;
  data?: Record<string, unknown>;
}

/**
 * POST /_emulator/webhooks/trigger: the emulator sends one event to its endpoints now. Never sent
 * again once it may have reached the emulator: each time makes an event of its own, and every
 * endpoint would be notified twice.
 */
export async function triggerWebhook(http: HttpClient, trigger: WebhookTrigger): Promise<TriggeredWebhook> {
  return controlCall(http, 'POST', '/_emulator/webhooks/trigger', triggeredSchema, { json: trigger, replaySafe: false });
}

const endpointSchema = z.looseObject({ endpoint_id: z.string(), url: z.string(), events: z.array(z.string()).nullable() });
export type WebhookEndpoint = z.infer<typeof endpointSchema>;

const ENDPOINTS_PATH = '/_emulator/webhooks/endpoints';
const endpointsSchema = z.looseObject({ endpoints: z.array(endpointSchema) });

/** How many times a registration whose answer was lost is looked for, then asked for again. */
const REGISTRATION_TRIES = 3;

/**
 * POST /_emulator/webhooks/endpoints: one more endpoint, of every event type or of those listed;
 * with a lease, removed unless renewed within it. Never sent again blindly: a registration whose
 * answer was lost (a 500, a cut connection, a timeout) may have made an endpoint, and a second one
 * at the same address would have every notification come twice. The endpoints are listed instead,
 * and the one at `url` (a listener's own address) taken; only when there is none is it asked again.
 */
export async function addWebhookEndpoint(http: HttpClient, url: string, events: readonly string[] | undefined, leaseSeconds?: number): Promise<WebhookEndpoint> {
  const body = { url, ...(events !== undefined && { events }), ...(leaseSeconds !== undefined && { lease_seconds: leaseSeconds }) };
  for (let tries = 1; ; tries++) {
    try {
      return await controlCall(http, 'POST', ENDPOINTS_PATH, endpointSchema, { json: body, replaySafe: false });
    } catch (error) {
      if (!mayHaveBeenApplied(error) || tries === REGISTRATION_TRIES) throw error;
      const listed = await controlCall(http, 'GET', ENDPOINTS_PATH, endpointsSchema);
      const made = listed.endpoints.find((endpoint) => endpoint.url === url);
      if (made !== undefined) return made;
    }
  }
}

/**
 * POST /_emulator/webhooks/endpoints/{id}/lease: the lease extended; undefined when the emulator
 * has no such endpoint (a restart, a reset, a lease that ran out). Extending it twice is extending it.
 */
export async function renewWebhookEndpoint(http: HttpClient, id: string): Promise<WebhookEndpoint | undefined> {
  const path = `/_emulator/webhooks/endpoints/${encodeURIComponent(id)}/lease`;
  try {
    // Not controlCall: a 404 here is the endpoint's, from an emulator known to be one.
    return await checkedAnswerOf(http, { method: 'POST', path }, endpointSchema);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** DELETE /_emulator/webhooks/endpoints/{id}, also after Ctrl-C (it is how a listener leaves); one already gone (a reset, a restart) is no error. */
export async function removeWebhookEndpoint(http: HttpClient, id: string): Promise<void> {
  try {
    await http.request({ method: 'DELETE', path: `/_emulator/webhooks/endpoints/${encodeURIComponent(id)}`, finishOnInterrupt: true });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}

/** The base URL answers, but has no emulator's control routes: the service itself, say. */
export class NotAnEmulatorError extends CsafeError {}

/** One control route's answer, read as `schema` within the attempt: a 2xx of another shape is retried as the request allows. */
async function controlCall<S extends z.ZodType>(http: HttpClient, method: 'GET' | 'POST', path: string, schema: S, spec: Pick<RequestSpec, 'json' | 'replaySafe'> = {}): Promise<z.infer<S>> {
  try {
    return await checkedAnswerOf(http, { method, path, ...spec }, schema);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    throw new NotAnEmulatorError(`${http.baseUrl} is not a csafe emulator: ${method} ${path} answered 404`, {
      hint: 'point CSAFE_BASE_URL (or --base-url) at `csafe emulator start`, or use --emulator',
    });
  }
}
