import { isIP } from 'node:net';
import { EVENT_TYPES, type EventType } from './names.js';

/**
 * A hand-written check that accepts exactly the events schemas/events.ts accepts, without zod:
 * the hot path of `events send` (and of the emulator's ingestion) checks a million events with it.
 * It only answers yes or no; a no is explained by the zod schema, with the messages users know.
 * test/schemas/event-check.test.ts holds the two to agreement (a table and seeded random events).
 */

export const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
export const DECIMAL = /^\d+(?:\.\d+)?$/;
/** ICU's list of ISO 4217 codes, so no table of currencies has to be kept here. */
export const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
export const isUrl = (value: string) => URL.canParse(value);
export const PRODUCT_EVENT_NAMES = ['product_created', 'product_updated'] as const;
export const SOURCE_TYPE_NAMES = ['human_moderator', 'expert_labeler', 'automation', 'vendor'] as const;
const SOURCE_TYPES: ReadonlySet<unknown> = new Set(SOURCE_TYPE_NAMES);
const PRODUCT_EVENTS: ReadonlySet<unknown> = new Set(PRODUCT_EVENT_NAMES);

/** zod's `z.iso.datetime({ offset: true })`: a calendar date, seconds required, Z or ±hh:mm. */
const DATE = '(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))';
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?';
export const DATETIME_WITH_OFFSET = new RegExp(`^${DATE}T(?:${TIME}(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$`);

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isNonEmpty = (value: unknown) => typeof value === 'string' && value !== '';
const isSnakeCase = (value: unknown) => typeof value === 'string' && SNAKE_CASE.test(value);
const isStrings = (value: unknown) => Array.isArray(value) && value.every(isString);
const isScalar = (value: unknown) => typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** A strict object's test: no key outside `keys` (zod reports an own `__proto__` as unknown too). */
function hasOnly(value: Fields, keys: ReadonlySet<string>): boolean {
  for (const key in value) if (!keys.has(key)) return false;
  return true;
}

const keys = (...names: string[]): ReadonlySet<string> => new Set(names);
const TEXT_PART = keys('type', 'text', 'key');
const IMAGE_PART = keys('type', 'source', 'key');
const IMAGE_SOURCE = keys('type', 'url');
const RESOURCE = keys('type', 'namespace', 'value');
const CLIENT_INFO = keys('ip');
const MONEY = keys('amount', 'currency');
const PRODUCT = keys('price', 'discounted_price', 'shipping_info');
const SHIPPING_INFO = keys('ships_from', 'ships_to');

function isContentPart(part: unknown): boolean {
  if (!isObject(part)) return false;
  if (part.type === 'text') return hasOnly(part, TEXT_PART) && isString(part.text) && (part.key === undefined || isString(part.key));
  if (part.type !== 'image' || !hasOnly(part, IMAGE_PART) || (part.key !== undefined && !isString(part.key))) return false;
  const source = part.source;
  return isObject(source) && hasOnly(source, IMAGE_SOURCE) && source.type === 'url' && isString(source.url) && isUrl(source.url);
}

const isContent = (value: unknown, least: number) => Array.isArray(value) && value.length >= least && value.every(isContentPart);

/** {type, namespace?, value}: a namespace with type "id" and only then; a URL when type is "url". */
function isResource(resource: unknown): boolean {
  if (!isObject(resource) || !hasOnly(resource, RESOURCE)) return false;
  const { type, namespace, value } = resource;
  if (!isSnakeCase(type) || !isString(value) || (namespace !== undefined && !isString(namespace))) return false;
  return (type === 'id') === (namespace !== undefined) && (type !== 'url' || isUrl(value));
}

/** Key-value pairs of scalars or arrays of scalars; zod's record leaves an own `__proto__` unchecked. */
function isMetadata(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key in value) {
    if (key === '__proto__') continue;
    const entry = value[key];
    if (!isScalar(entry) && !(Array.isArray(entry) && entry.every(isScalar))) return false;
  }
  return true;
}

const isClientInfo = (value: unknown) =>
  isObject(value) && hasOnly(value, CLIENT_INFO) && (value.ip === undefined || (isString(value.ip) && isIP(value.ip) !== 0));

const isMoney = (value: unknown) =>
  isObject(value) && hasOnly(value, MONEY) && isString(value.amount) && DECIMAL.test(value.amount) && isString(value.currency) && CURRENCIES.has(value.currency);

function isProduct(value: unknown): boolean {
  if (!isObject(value) || !hasOnly(value, PRODUCT) || !isMoney(value.price)) return false;
  if (value.discounted_price !== undefined && !isMoney(value.discounted_price)) return false;
  const shipping = value.shipping_info;
  if (shipping === undefined) return true;
  return isObject(shipping) && hasOnly(shipping, SHIPPING_INFO) && (shipping.ships_from === undefined || isString(shipping.ships_from)) && (shipping.ships_to === undefined || isStrings(shipping.ships_to));
}

const COMMON_FIELDS = ['type', 'event_name', 'timestamp', 'client_info', 'content', 'content_id', 'idempotency_key', 'metadata', 'resources_used'];

/** The fields every variant has, but event_name and content, whose rules some variants change. */
const hasValidCommonFields = (event: Fields) =>
  isString(event.timestamp) &&
  DATETIME_WITH_OFFSET.test(event.timestamp) &&
  (event.client_info === undefined || isClientInfo(event.client_info)) &&
  (event.content_id === undefined || isString(event.content_id)) &&
  (event.idempotency_key === undefined || isNonEmpty(event.idempotency_key)) &&
  (event.metadata === undefined || isMetadata(event.metadata)) &&
  (event.resources_used === undefined || (Array.isArray(event.resources_used) && event.resources_used.every(isResource)));

const snakeCaseName = (event: Fields) => isSnakeCase(event.event_name);
const optionalContent = (event: Fields) => event.content === undefined || isContent(event.content, 0);
const requiredContent = (event: Fields) => isContent(event.content, 1);

interface Variant {
  fields: ReadonlySet<string>;
  /** The variant's own rules, event_name and content included. */
  isValid(event: Fields): boolean;
}

const variant = (fields: string[], isValid: (event: Fields) => boolean): Variant => ({ fields: new Set([...COMMON_FIELDS, ...fields]), isValid });

const VARIANTS: Readonly<Record<EventType, Variant>> = {
  user_contact: variant(['user_id', 'target_user_id'], (e) => snakeCaseName(e) && optionalContent(e) && isNonEmpty(e.user_id) && isNonEmpty(e.target_user_id)),
  content_uploaded: variant(['user_id'], (e) => snakeCaseName(e) && requiredContent(e) && isNonEmpty(e.user_id)),
  product_changed: variant(['user_id', 'product'], (e) =>
    PRODUCT_EVENTS.has(e.event_name) && requiredContent(e) && isNonEmpty(e.user_id) && isProduct(e.product)),
  create_account: variant(['user_id'], (e) => snakeCaseName(e) && optionalContent(e) && isNonEmpty(e.user_id)),
  update_account: variant(['user_id'], (e) => snakeCaseName(e) && optionalContent(e) && isNonEmpty(e.user_id)),
  user_report: variant(['user_id', 'labels', 'target_user_id', 'target_content_id'], (e) =>
    snakeCaseName(e) && optionalContent(e) && isNonEmpty(e.user_id) && isStrings(e.labels) &&
    (e.target_user_id === undefined || isNonEmpty(e.target_user_id)) && (e.target_content_id === undefined || isNonEmpty(e.target_content_id))),
  moderation_decision: variant(['user_id', 'labels', 'source_id', 'source_type'], (e) =>
    snakeCaseName(e) && optionalContent(e) && e.user_id === undefined && isStrings(e.labels) && isNonEmpty(e.source_id) && SOURCE_TYPES.has(e.source_type)),
};

const variantOf = (type: unknown): Variant | undefined =>
  typeof type === 'string' && Object.hasOwn(VARIANTS, type) ? VARIANTS[type as EventType] : undefined;

/**
 * Whether the service takes the value as an event: one of the seven variants the spec shows,
 * or, with `allowUnknownTypes`, any object whose type is another non-empty string.
 */
export function isValidEvent(value: unknown, allowUnknownTypes: boolean): boolean {
  if (!isObject(value)) return false;
  const found = variantOf(value.type);
  if (found === undefined) return allowUnknownTypes && isNonEmpty(value.type) && !(EVENT_TYPES as readonly unknown[]).includes(value.type);
  return hasOnly(value, found.fields) && hasValidCommonFields(value) && found.isValid(value);
}
