import * as z from 'zod';
import { WEBHOOK_EVENT_TYPES } from './names.js';

/** What a webhook endpoint and an event type must be: the emulator's routes and the commands check them alike. */

export const httpUrlSchema = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, { error: `expected one of ${WEBHOOK_EVENT_TYPES.join(', ')}` });

/** `workflow.succeeded,workflow.failed`: the event types of a comma-separated flag. */
export const webhookEventListSchema = z
  .string()
  .transform((list) => list.split(',').map((type) => type.trim()))
  .pipe(z.array(webhookEventTypeSchema).min(1));
