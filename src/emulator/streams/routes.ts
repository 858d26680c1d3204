import { Readable } from 'node:stream';
import { streamPartsRequestProblems, watchStreamRequestSchema, type StreamPart } from '../../schemas/streams.js';
import { textLabels } from '../classifier.js';
import { control } from '../control/routes.js';
import { EmulatorError } from '../http/errors.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { checkBody, namespaceParam, validateBody } from '../http/validation.js';
import { newRequestId } from '../stores/ids.js';
import { partsAsJsonMembers, type StoredPart, type StreamSnapshot } from '../stores/stream-store.js';
import { REQUEST_BYTES } from '../../schemas/names.js';

/** How the emulator answers the livestream endpoints, and lists streams and their parts for tests. */


export const streamRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/streams/:namespace', maxBodyBytes: 64 * 1024, auth: true, handle: watchStream },
  { method: 'POST', pattern: '/v1/streams/:namespace/parts', maxBodyBytes: REQUEST_BYTES, auth: true, handle: appendParts },
  control('GET', '/_emulator/streams/:namespace', listStreams),
  control('GET', '/_emulator/streams/:namespace/:id', showStream),
];

/** 202, as POST /v1/data answers: both are accepted now and processed asynchronously. */
const accepted = (): RouteResult => ({ status: 202, body: { requestId: newRequestId(), status: 'accepted' } });

async function watchStream(ctx: RouteContext): Promise<RouteResult> {
  const namespace = namespaceParam(ctx);
  const { id, stream_url: streamUrl } = validateBody(watchStreamRequestSchema, ctx.json());
  await ctx.state.streams.watch(namespace, id, streamUrl);
  return accepted();
}

/** All or nothing: one invalid part is a 400 naming it by index, and none of the request's parts is kept. */
async function appendParts(ctx: RouteContext): Promise<RouteResult> {
  const namespace = namespaceParam(ctx);
  const body = ctx.json();
  checkBody(body, streamPartsRequestProblems);
  const { id, data } = body as { id: string; data: StreamPart[] };
  await ctx.state.streams.append(namespace, id, data.map(withLabels));
  return accepted();
}

/** Chat messages and transcripts are classified by their text; the classifier has nothing to say of a link. */
const withLabels = (part: StreamPart): StoredPart => ({
  ...part,
  labels: part.type === 'chat_message' || part.type === 'transcript' ? textLabels([part.text]) : [],
});

/** GET /_emulator/streams/{namespace}: `{"streams": [ids]}`, first seen first. */
async function listStreams(ctx: RouteContext): Promise<RouteResult> {
  return { status: 200, body: { streams: await ctx.state.streams.ids(namespaceParam(ctx)) } };
}

/**
 * GET /_emulator/streams/{namespace}/{id}: `{"id", "stream_url", "parts": [{…as sent, "labels"}]}`,
 * parts in arrival order, streamed from disk as they are sent, however many there are. Parts
 * that arrive while it is being sent are left for the next look.
 */
async function showStream(ctx: RouteContext): Promise<RouteResult> {
  const namespace = namespaceParam(ctx);
  const id = ctx.params.id ?? '';
  const snapshot = await ctx.state.streams.snapshot(namespace, id);
  if (snapshot === undefined) {
    throw new EmulatorError(404, `no stream ${JSON.stringify(id)} in namespace ${JSON.stringify(namespace)}; streams appear when watched or when their first parts arrive`);
  }
  return { status: 200, raw: { contentType: 'application/json; charset=utf-8', content: () => Readable.from(streamView(snapshot), { objectMode: false }) } };
}

async function* streamView(snapshot: StreamSnapshot): AsyncGenerator<Buffer> {
  yield Buffer.from(`{"id":${JSON.stringify(snapshot.id)},"stream_url":${JSON.stringify(snapshot.stream_url)},"parts":[`);
  yield* partsAsJsonMembers(snapshot);
  yield Buffer.from(']}');
}
