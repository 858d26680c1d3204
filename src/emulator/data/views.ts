import { baseUrlOf, reviewUrl } from '../http/links.js';
import type { RouteContext } from '../http/router.js';
import { addRecordView, type AddRequest, type Timing } from '../stores/data-records.js';

/** How a stored request is seen at the moment of a request: its phase by the clock, its links from the address it is read at. */

export const timingOf = (ctx: RouteContext): Timing => ({ now: ctx.config.now(), processingDelayMs: ctx.config.processingDelayMs });

/** An add request's record, each object with its review link. */
export function addView(ctx: RouteContext, record: AddRequest) {
  return addRecordView(record, timingOf(ctx), (id) => reviewUrl(ctx.state.data.secret, baseUrlOf(ctx.req), record.namespace, id));
}
