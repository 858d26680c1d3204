import type { HttpClient } from '../core/http/client.js';
import { pathSegment } from '../core/http/path-segment.js';
import { acceptedResponseSchema, type AcceptedResponse } from '../schemas/data.js';
import type { WatchStreamRequest } from '../schemas/streams.js';
import { checkedAnswerOf } from './responses.js';

/** How csafe calls the livestream endpoints: watch a stream, send its parts. */

const streamsPath = (namespace: string) => `/v1/streams/${pathSegment(namespace, 'NAMESPACE')}`;

/** POST /v1/streams/{namespace}: monitor the livestream at `stream_url` under the caller's `id`. Safe to replay: the id is the caller's, so a second request names the same stream. */
export async function watchStream(http: HttpClient, namespace: string, body: WatchStreamRequest): Promise<AcceptedResponse> {
  const path = streamsPath(namespace);
  return checkedAnswerOf(http, { method: 'POST', path, json: body }, acceptedResponseSchema);
}

/** The bytes `{"id":…,"data":[` and `]}` add around a request's parts, less the comma the last part does not have. */
export const partsFrameBytes = (id: string) => Buffer.byteLength(`{"id":${JSON.stringify(id)},"data":[]}`) - 1;

/**
 * POST /v1/streams/{namespace}/parts with parts already serialised: each is the compact JSON of
 * the part as parsed (fields in the order read, white space dropped, escapes decoded), made once
 * when it was checked and measured, and joined here as is.
 * Parts carry no idempotency key, so a request that may have been processed is never replayed:
 * only a refused connection, 429 and 503 (the service's "not processed") are retried.
 */
export async function sendStreamParts(http: HttpClient, namespace: string, id: string, parts: readonly string[]): Promise<AcceptedResponse> {
  const path = `${streamsPath(namespace)}/parts`;
  const body = Buffer.from(`{"id":${JSON.stringify(id)},"data":[${parts.join(',')}]}`);
  const spec = {
    method: 'POST',
    path,
    body: { open: () => body, length: body.length, contentType: 'application/json' },
    replaySafe: false,
    // After Ctrl-C the answer still comes: it says whether these parts reached the stream.
    finishOnInterrupt: true,
  } as const;
  return checkedAnswerOf(http, spec, acceptedResponseSchema);
}
