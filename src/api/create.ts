import { ApiError, CsafeError, mayHaveBeenApplied } from '../core/errors.js';
import type { HttpClient, RequestSpec } from '../core/http/client.js';
import { readAnswerOf } from './responses.js';

/** How a request that creates something is sent without ever creating it twice, and what the user is told when its answer is lost. */

/** What a create call makes, as messages name it: `decision`, `batch`, `import`; and what else a user should know of one whose answer was lost. */
export interface Creation {
  what: string;
  note?: string;
}

/** The answer of a create call was lost after the service may have processed it; the call was not sent again. */
export class UnconfirmedCreationError extends CsafeError {
  constructor(creation: Creation, lost: CsafeError) {
    const requestId = lost instanceof ApiError && lost.details.requestId !== undefined ? ` (request id ${lost.details.requestId})` : '';
    super(`the ${creation.what} may have been created: ${lost.message}${requestId}; it was not sent again, as that could create a second ${creation.what}`, {
      // The spec has no list endpoint for decisions, batches or imports: the review interface is where one shows.
      hint: `${plural(creation.what)} cannot be listed through the API: look for it in the service's review interface (against \`csafe emulator\`: its request log, GET /_emulator/requests) before creating it again${creation.note === undefined ? '' : `; ${creation.note}`}`,
      cause: lost,
    });
  }
}

const plural = (what: string) => (what.endsWith('ch') ? `${what}es` : `${what}s`);

/** Of a batch or an import, created before its file is uploaded. */
export const UPLOAD_NOT_SENT = 'nothing of the file was sent: one created so waits for an upload that never comes, and running the command again creates another';

/** What a create call's run waits for when it is stopped while it awaits the answer (the HTTP client says why it stopped). */
export const awaitedCreation = (spec: Pick<RequestSpec, 'method' | 'path'>, creation: Creation) =>
  `the answer to ${spec.method} ${spec.path ?? ''}, which says whether the ${creation.what} was created`;

/**
 * Sends a request that creates something and reads its answer. Never replayed once the service
 * may have processed it (a second request would make a second one, and the user would learn only
 * its id): retried only after a refused connection, a 429 or a 503. An answer lost or unreadable
 * after that point is an UnconfirmedCreationError saying so. Ctrl-C does not cut it off (and says
 * so at once): its answer is the only way to learn the id of what was made.
 */
export async function createOnce<T>(http: HttpClient, spec: Omit<RequestSpec, 'replaySafe' | 'finishOnInterrupt' | 'awaitedAnswer'>, creation: Creation, read: (body: unknown) => T): Promise<T> {
  try {
    return await readAnswerOf(http, { ...spec, replaySafe: false, finishOnInterrupt: true, awaitedAnswer: awaitedCreation(spec, creation) }, read);
  } catch (error) {
    if (error instanceof CsafeError && mayHaveBeenApplied(error)) throw new UnconfirmedCreationError(creation, error);
    throw error;
  }
}
