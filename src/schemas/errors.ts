import * as z from 'zod';

/** What an error answer looks like: the body the emulator sends, and the error type of each status. */

/**
 * The spec does not show an error body. The emulator answers with this shape and the client
 * reads it, but the client also accepts `{message}`, `{error: "text"}` or plain text.
 */
export const errorBodySchema = z.looseObject({
  error: z.looseObject({
    type: z.string(),
    message: z.string(),
    field: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const ERROR_TYPES = {
  400: 'invalid_request',
  401: 'authentication_error',
  403: 'permission_denied',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  411: 'length_required',
  413: 'request_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal_error',
  501: 'not_implemented',
  503: 'service_unavailable',
} as const;
