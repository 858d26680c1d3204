import { createHash } from 'node:crypto';
import { recordsListing } from '../control/routes.js';
import type { Route, RouteContext, RouteResult } from '../http/router.js';
import { validateBody } from '../http/validation.js';
import { withUnlistedField } from '../stores/state.js';
import { deletionRequestSchema } from '../../schemas/deletions.js';

/**
 * POST /v1/deletion_requests (the service's docs): a data subject's erasure request, recorded and
 * accepted. As the docs say of the service, nothing is deleted: the request is recorded. A repeat
 * of an external_request_id answers the request it first filed.
 */

export const deletionRoutes: readonly Route[] = [
  { method: 'POST', pattern: '/v1/deletion_requests', maxBodyBytes: 64 * 1024, auth: true, docsOnly: true, handle: fileDeletion },
  recordsListing('/_emulator/deletion_requests', 'deletion_requests', (ctx) => ctx.state.deletions),
];

async function fileDeletion(ctx: RouteContext): Promise<RouteResult> {
  const request = validateBody(deletionRequestSchema, ctx.json());
  const store = ctx.state.deletions;
  // Keyed by the external id when there is one (and this store's secret, so ids cannot be guessed): of repeats, even at once, the first filed is kept.
  const id = request.external_request_id === undefined ? store.newId() : `del_${createHash('sha256').update(`${ctx.state.data.secret.toString('hex')}\n${request.external_request_id}`).digest('hex').slice(0, 24)}`;
  const filed = await store.saveFirst(id, { deletion_request_id: id, ...request, received_at: new Date(ctx.config.now()).toISOString() });
  const body = { deletion_request_id: filed.deletion_request_id, status: 'accepted', ...(filed.external_request_id !== undefined && { external_request_id: filed.external_request_id }) };
  return { status: 200, body: withUnlistedField(ctx.state.quirks, body) };
}
