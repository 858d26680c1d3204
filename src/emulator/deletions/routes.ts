import { createHash } from 'node:crypto';
import { control } from '../control/routes.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { validateBody } from '../http/validation.js';
import { withUnlistedField } from '../stores/state.js';
import { deletionRequestSchema } from '../../schemas/deletions.js';

/**
 * POST /v1/deletion_requests (the service's docs): a data subject's erasure request, recorded and
 * accepted. As the docs say of the service, nothing is deleted: the request is recorded. A repeat
 * of an external_request_id answers the request it first filed.
 */

/** How many records GET /_emulator/deletion_requests lists at most. */
const LISTING_LIMIT = 10_000;

export const deletionRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/deletion_requests', maxBodyBytes: 64 * 1024, auth: true, handle: fileDeletion },
  control('GET', '/_emulator/deletion_requests', async (ctx) => ({ status: 200, body: { deletion_requests: await ctx.state.deletions.list(LISTING_LIMIT) } })),
];

async function fileDeletion(ctx: RouteContext): Promise<RouteResult> {
  const request = validateBody(deletionRequestSchema, ctx.json());
  const store = ctx.state.deletions;
  // Keyed by the external id when there is one: a repeat, even a concurrent one, finds the same record.
  const id = request.external_request_id === undefined ? store.newId() : `del_${createHash('sha256').update(request.external_request_id).digest('hex').slice(0, 24)}`;
  const filed = (await store.get(id)) ?? { deletion_request_id: id, ...request, received_at: new Date(ctx.config.now()).toISOString() };
  await store.save(id, filed);
  const body = { deletion_request_id: filed.deletion_request_id, status: 'accepted', ...(filed.external_request_id !== undefined && { external_request_id: filed.external_request_id }) };
  return { status: 200, body: withUnlistedField(ctx.state.quirks, body) };
}
