// The plain values the schemas are built from, free of zod: help texts quote them, and `--help`
// must not load zod (it would slow start-up). The schema modules re-export them where they belong.

/**
 * The spec's request size limit, 6 MB, read as 10^6 bytes (the stricter reading). The spec states
 * it for POST /v1/content only; csafe keeps every request it sends under it, and the emulator
 * holds every JSON body the spec gives no limit for to it.
 */
export const REQUEST_BYTES = 6_000_000;

/** The service versions `classify --api-version` takes (schemas/content). */
export const CURRENT_VERSION = '2026-08-11';
export const LEGACY_VERSION = '2026-08-05';
export const SERVICE_VERSIONS = [CURRENT_VERSION, LEGACY_VERSION] as const;
export type ServiceVersion = (typeof SERVICE_VERSIONS)[number];

/** Namespace settings' content types (schemas/data). */
/**
 * A field's content_type: the spec's five, and the two the service's current docs add (audio_url,
 * card). The union of both vocabularies is accepted; what neither has is refused.
 */
export const CONTENT_TYPES = ['image_url', 'video_url', 'website_url', 'datetime', 'metadata', 'audio_url', 'card'] as const;

/** The seven event variants the spec shows. It says an eighth exists; its shape is not shown (schemas/events). */
export const EVENT_TYPES = [
  'user_contact',
  'content_uploaded',
  'product_changed',
  'create_account',
  'update_account',
  'user_report',
  'moderation_decision',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Access tokens' lifetime (schemas/tokens). */
export const TOKEN_LIFETIME = { defaultSeconds: 3600, minSeconds: 300, maxSeconds: 86400 } as const;

/** The notifications the service sends its webhook endpoints (its docs; not in the spec). */
export const WEBHOOK_EVENT_TYPES = ['workflow.succeeded', 'workflow.failed', 'decision.completed', 'batch.completed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
