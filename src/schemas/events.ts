import { isIP } from 'node:net';
import * as z from 'zod';
import { CURRENCIES, DECIMAL, isUrl, isValidEvent, PRODUCT_EVENT_NAMES, SNAKE_CASE, SOURCE_TYPE_NAMES } from './event-check.js';
import { expecting, problemsFromZod, type FieldProblem } from './issues.js';

import { EVENT_TYPES, type EventType } from './names.js';

export { EVENT_TYPES, type EventType } from './names.js';

/** What the event endpoints take and answer: the seven event variants the spec shows, each refusal naming its field. */

const text = (expected = 'expected a string') => z.string({ error: expecting(expected) });
const identifier = (what: string) => text(`expected a non-empty string (${what})`).min(1, { error: `expected a non-empty string (${what})` });
const snakeCase = (what: string) =>
  text(`expected a snake_case string (${what})`).regex(SNAKE_CASE, { error: `expected snake_case, e.g. item_listed (${what})` });
const strings = (what: string) => z.array(text('expected a string'), { error: expecting(`expected an array of strings (${what})`) });

const moneySchema = z.strictObject(
  {
    amount: text('expected a decimal string such as "19.99"').regex(DECIMAL, { error: 'expected a decimal string such as "19.99"' }),
    currency: text('expected an ISO 4217 currency code such as "EUR"').refine((code) => CURRENCIES.has(code), {
      error: 'expected an ISO 4217 currency code such as "EUR"',
    }),
  },
  { error: expecting('expected an object {amount, currency}') },
);

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const metadataSchema = z.record(
  z.string(),
  z.union([scalar, z.array(scalar)], { error: 'expected a string, number, boolean, or an array of those' }),
  { error: 'expected an object of key-value pairs' },
);

const textPartSchema = z.strictObject({ type: z.literal('text'), text: text(), key: text().optional() });
const imagePartSchema = z.strictObject({
  type: z.literal('image'),
  source: z.strictObject(
    {
      type: z.literal('url', { error: 'expected "url"' }),
      url: text('expected a URL').refine(isUrl, { error: 'expected a valid absolute URL' }),
    },
    { error: expecting('expected an object {type: "url", url}') },
  ),
  key: text().optional(),
});
const contentPartSchema = z.discriminatedUnion('type', [textPartSchema, imagePartSchema], {
  error: 'expected a content part with type "text" or "image"',
});
const contentSchema = z.array(contentPartSchema, { error: expecting('expected an array of content parts') });

/** Either an entity id {type: "id", namespace, value} or a general resource {type, value}. */
const resourceSchema = z
  .strictObject({
    type: snakeCase('a resource family such as email, phone, url, or id'),
    namespace: text().optional(),
    value: text(),
  })
  .superRefine((resource, ctx) => {
    if (resource.type === 'id' && resource.namespace === undefined) {
      ctx.addIssue({ code: 'custom', path: ['namespace'], message: 'is required when type is "id"' });
    }
    if (resource.type !== 'id' && resource.namespace !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['namespace'], message: 'is only allowed when type is "id"' });
    }
    if (resource.type === 'url' && !isUrl(resource.value)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'expected a valid absolute URL when type is "url"' });
    }
  });

const clientInfoSchema = z.strictObject(
  { ip: text('expected an IP address').refine((ip) => isIP(ip) !== 0, { error: 'expected an IPv4 or IPv6 address' }).optional() },
  { error: 'expected an object {ip}' },
);

const timestampSchema = z.iso.datetime({ offset: true, error: expecting('expected an ISO 8601 datetime with a time zone, e.g. 2026-08-11T09:30:00Z') });

/** Fields every variant has; user_id is added per variant because moderation_decision must not send it. */
const commonSchema = z.strictObject({
  event_name: snakeCase('a stable, low-cardinality action name'),
  timestamp: timestampSchema,
  client_info: clientInfoSchema.optional(),
  content: contentSchema.optional(),
  content_id: text().optional(),
  idempotency_key: identifier('reuse only for retries of the same event').optional(),
  metadata: metadataSchema.optional(),
  resources_used: z.array(resourceSchema, { error: 'expected an array of resources' }).optional(),
});
const userId = identifier("your stable identifier of the user");
const requiredContent = contentSchema.min(1, { error: 'expected at least one content part' });

const variant = <T extends EventType, S extends z.core.$ZodLooseShape>(type: T, shape: S) =>
  commonSchema.extend({ type: z.literal(type), ...shape });

const userContactSchema = variant('user_contact', { user_id: userId, target_user_id: identifier('the other user') });
const contentUploadedSchema = variant('content_uploaded', { user_id: userId, content: requiredContent });
const productChangedSchema = variant('product_changed', {
  user_id: userId,
  event_name: z.enum(PRODUCT_EVENT_NAMES, { error: expecting(`expected ${PRODUCT_EVENT_NAMES.join(' or ')}`) }),
  content: requiredContent,
  product: z.strictObject(
    {
      price: moneySchema,
      discounted_price: moneySchema.optional(),
      shipping_info: z.strictObject({ ships_from: text().optional(), ships_to: strings('destinations').optional() }).optional(),
    },
    { error: expecting('expected an object {price, discounted_price?, shipping_info?}') },
  ),
});
const createAccountSchema = variant('create_account', { user_id: userId });
const updateAccountSchema = variant('update_account', { user_id: userId });
const userReportSchema = variant('user_report', {
  user_id: identifier('the reporter'),
  labels: strings('labels of the report'),
  target_user_id: identifier('the reported user').optional(),
  target_content_id: identifier('the reported content').optional(),
});
const moderationDecisionSchema = variant('moderation_decision', {
  user_id: z.never({ error: 'must not be sent for moderation_decision' }).optional(),
  labels: strings('labels decided'),
  source_id: identifier('stable identifier within source_type'),
  source_type: z.enum(SOURCE_TYPE_NAMES, { error: expecting(`expected one of ${SOURCE_TYPE_NAMES.join(', ')}`) }),
});

export const backendEventSchema = z.discriminatedUnion('type', [
  userContactSchema,
  contentUploadedSchema,
  productChangedSchema,
  createAccountSchema,
  updateAccountSchema,
  userReportSchema,
  moderationDecisionSchema,
]);
export type BackendEvent = z.infer<typeof backendEventSchema>;

const isKnownType = (type: unknown): type is EventType => (EVENT_TYPES as readonly unknown[]).includes(type);

export interface EventCheck {
  /** Pass an event of a type the spec does not show through without checking it (the eighth variant). */
  allowUnknownTypes: boolean;
}

/**
 * Every reason the service would refuse this event. A valid event is told by the hand-written
 * check (schemas/event-check) alone; zod explains the others. The type is checked first, so an
 * unknown one is named with the list of known ones instead of zod's generic union message.
 */
export function eventProblems(value: unknown, check: EventCheck): FieldProblem[] {
  return isValidEvent(value, check.allowUnknownTypes) ? [] : explainedProblems(value, check);
}

/** What zod finds wrong with the event (nothing, for a valid one): exported to hold the fast check to it. */
export function explainedProblems(value: unknown, check: EventCheck): FieldProblem[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [{ path: [], message: 'expected a JSON object (one event)' }];
  }
  const type = (value as { type?: unknown }).type;
  if (type === undefined) return [{ path: ['type'], message: `is required: one of ${EVENT_TYPES.join(', ')}` }];
  if (!isKnownType(type)) {
    if (check.allowUnknownTypes && typeof type === 'string' && type !== '') return [];
    return [{ path: ['type'], message: `unknown event type ${JSON.stringify(type)}: expected one of ${EVENT_TYPES.join(', ')}` }];
  }
  const parsed = backendEventSchema.safeParse(value);
  return parsed.success ? [] : problemsFromZod(parsed.error, { schema: backendEventSchema, value });
}

// Responses: tolerant of fields they do not list, strict about what the client relies on.

/** POST /v1/async/events: one queue message per event of the request. */
export const queuedEventsResponseSchema = z.looseObject({ status: z.string(), queued_events: z.number() });

/** POST /v1/events: `event_id` for a single event, `event_ids` in request order for a batch. */
export const syncEventsResponseSchema = z
  .looseObject({ status: z.string(), event_id: z.string().optional(), event_ids: z.array(z.string()).optional() })
  .refine((response) => response.event_id !== undefined || response.event_ids !== undefined, {
    error: 'expected event_id (one event) or event_ids (a batch)',
  });
export type SyncEventsResponse = z.infer<typeof syncEventsResponseSchema>;

export const eventIdsOf = (response: SyncEventsResponse): string[] => response.event_ids ?? [response.event_id!];
