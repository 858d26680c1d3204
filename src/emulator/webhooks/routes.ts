import * as z from 'zod';
import { EmulatorError } from '../http/errors.js';
import { baseUrlOf, reviewUrl } from '../http/links.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { validateBody } from '../http/validation.js';
import { control, recordsListing } from '../control/routes.js';
import { newRequestId } from '../stores/ids.js';
import type { WebhookEventType } from '../../schemas/names.js';
import { httpUrlSchema, webhookEventTypeSchema } from '../../schemas/webhooks.js';
import { legacyEvent } from './events.js';

/**
 * The emulator's webhook controls (the service configures endpoints in its dashboard): endpoints
 * added and removed at run time, the deliveries and their attempts listed, and an event of any
 * type sent on demand, a sample or the caller's own data.
 */
export const webhookRoutes: readonly Route[] = [
  recordsListing('/_emulator/webhooks', 'deliveries', (ctx) => ctx.state.webhooks),
  control('GET', '/_emulator/webhooks/endpoints', listEndpoints),
  control('POST', '/_emulator/webhooks/endpoints', addEndpoint),
  control('DELETE', '/_emulator/webhooks/endpoints/:endpointId', removeEndpoint),
  control('POST', '/_emulator/webhooks/endpoints/:endpointId/lease', renewLease),
  control('POST', '/_emulator/webhooks/trigger', trigger, 1024 * 1024),
];

const endpointSchema = z.strictObject({
  url: httpUrlSchema,
  events: z.array(webhookEventTypeSchema).min(1).nullish(),
  /** Removed this long after it was added or last renewed (POST …/lease), unless renewed again. */
  lease_seconds: z.number().int().min(1).max(86_400).optional(),
});

const triggerSchema = z.strictObject({
  type: webhookEventTypeSchema,
  namespace: z.string().min(1).optional(),
  id: z.string().min(1).optional(),
  /** The event's own data: the fields of a workflow event, the `data` of a legacy envelope. */
  data: z.record(z.string(), z.unknown()).optional(),
});

function listEndpoints(ctx: RouteContext): RouteResult {
  return { status: 200, body: { endpoints: ctx.state.webhooks.listEndpoints(), dropped: ctx.state.webhooks.dropped } };
}

async function addEndpoint(ctx: RouteContext): Promise<RouteResult> {
  const { url, events, lease_seconds: leaseSeconds } = validateBody(endpointSchema, ctx.json());
  return { status: 201, body: await ctx.state.webhooks.addEndpoint(url, events ?? null, leaseSeconds) };
}

/** A leased endpoint's lease extended by its length from now; one registered for good has no lease to extend. */
async function renewLease(ctx: RouteContext): Promise<RouteResult> {
  const { endpointId = '' } = ctx.params;
  const endpoint = await ctx.state.webhooks.renewEndpoint(endpointId);
  if (endpoint === undefined) throw new EmulatorError(404, `no webhook endpoint ${endpointId}`);
  if (endpoint.lease_seconds === undefined) throw new EmulatorError(409, `webhook endpoint ${endpointId} was registered without lease_seconds: it has no lease to renew`);
  return { status: 200, body: endpoint };
}

async function removeEndpoint(ctx: RouteContext): Promise<RouteResult> {
  const { endpointId = '' } = ctx.params;
  if (!(await ctx.state.webhooks.removeEndpoint(endpointId))) throw new EmulatorError(404, `no webhook endpoint ${endpointId}`);
  return { status: 200, body: { endpoint_id: endpointId, removed: true } };
}

/** One event now, to every endpoint that takes its type: its webhook-id and how many deliveries were queued. */
async function trigger(ctx: RouteContext): Promise<RouteResult> {
  const { type, namespace, id, data } = validateBody(triggerSchema, ctx.json());
  const payload = sampleEvent(ctx, type, { namespace, id }, data);
  return { status: 200, body: { type, ...(await ctx.state.webhooks.emit(type, payload)) } };
}

/**
 * An event of the type with the caller's data over the sample's: a workflow event about
 * `namespace`/`id` (its review link made for them, after the data; its type always the one asked
 * for); a legacy one whose decision or batch has the id `id`.
 */
function sampleEvent(ctx: RouteContext, type: WebhookEventType, about: { namespace?: string; id?: string }, data: Record<string, unknown> | undefined) {
  switch (type) {
    case 'workflow.succeeded':
    case 'workflow.failed': {
      const sample = type === 'workflow.succeeded' ? { output: { actions: [], labels: [{ label: 'spam', confidence: 'medium' }], fields: {} } } : { error: { message: 'a sample failure (csafe webhooks trigger)' } };
      const event: Record<string, unknown> = { namespace: about.namespace ?? 'listings', id: about.id ?? 'listing-1', request_id: newRequestId(), ...sample, ...data, type };
      const url = type === 'workflow.succeeded' ? { url: reviewUrl(ctx.state.data.secret, baseUrlOf(ctx.req), String(event.namespace), String(event.id)) } : {};
      return { type, ...event, ...url };
    }
    case 'decision.completed':
      return legacyEvent(type, data ?? { decision_id: about.id ?? 'dec_sample', decision_status: 'SUCCESS', metadata: {}, result: 'match', labels: [{ name: 'spam', applied: true, explanation: 'a sample decision' }] });
    case 'batch.completed':
      return legacyEvent(type, data ?? { batch_id: about.id ?? 'bat_sample', type: 'text', batch_status: 'SUCCESS', upload_url: null, download_url: null, batch_count: 1, pending_count: 0, success_count: 1, error_count: 0, cancelled_count: 0 });
  }
}
