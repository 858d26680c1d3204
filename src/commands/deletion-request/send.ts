import { hash } from 'node:crypto';
import { postDeletionRequest } from '../../api/deletions.js';
import type { Context } from '../../context.js';
import { lineWithAnswer, sendEachLine, type CheckedRequest } from '../../core/bulk/line-requests.js';
import { shellWord } from '../../core/cli/command-line.js';
import { parseFlags } from '../../core/cli/options.js';
import { fileOrStdin } from '../../core/input/sources.js';
import { contentKey } from '../../core/json/canonical.js';
import type { StreamView } from '../../core/terminal/output.js';
import { countOf } from '../../core/terminal/words.js';
import { deletionRequestSchema, type DeletionResponse, type KeyedDeletionRequest } from '../../schemas/deletions.js';
import { parsedOrProblem } from '../../schemas/issues.js';
import { lineRunOutcome, positional, type Action } from '../app.js';
import type { deletionRequestSend } from './send-command.js';

// `csafe deletion-request send`: a JSONL file of deletion requests, a request each, each with an
// external_request_id so that no re-run files one twice.

/** What is printed of a request the service answered: its line and subject, then the service's answer. */
type FiledRequest = { line: number; subject_user_id: string } & DeletionResponse;

const filedView: StreamView<FiledRequest, FiledRequest> = {
  rows: (filed) => [filed],
  columns: [
    { header: 'LINE', value: (r) => String(r.line) },
    { header: 'SUBJECT_USER_ID', value: (r) => r.subject_user_id },
    { header: 'DELETION_REQUEST_ID', value: (r) => r.deletion_request_id },
    { header: 'STATUS', value: (r) => r.status },
    { header: 'EXTERNAL_REQUEST_ID', value: (r) => r.external_request_id ?? '' },
  ],
  order: (a, b) => a.line - b.line,
};

/**
 * How many external ids a run compares, line with line: past it, a repeated id meant for another
 * request is no longer caught before sending. Each is kept as two 66-bit digests.
 */
const IDS_COMPARED = 200_000;

/**
 * 11 characters of base64url: shorter than the 13 from which V8 keeps a slice as a view of the
 * whole 43, so each digest holds its own few bytes and not the full hash it was cut from.
 */
const digest = (text: string) => hash('sha256', text, 'base64url').slice(0, 11);

/**
 * The check of each line: the request as the service takes it, with an external_request_id
 * derived from its content when it has none; refused when it has neither that nor requested_at
 * (a key from the subject alone would answer every later request of the subject with its first),
 * and when its external id is on an earlier line of another request (the service would answer
 * it with that one, filing nothing for this line).
 */
function requestCheck(): (value: unknown, line: number) => CheckedRequest<KeyedDeletionRequest> {
  const seen = new Map<string, { signature: string; line: number }>();
  return (value, line) => {
    if (value !== null && typeof value === 'object' && (value as Record<string, unknown>).external_request_id === null) {
      return { problem: 'external_request_id: expected a string, got null; leave the field out to have csafe derive one from the line' };
    }
    const checked = parsedOrProblem(deletionRequestSchema, value);
    if (!('data' in checked)) return checked;
    const { external_request_id: given, ...content } = checked.data;
    if (given === undefined && content.requested_at === undefined) {
      return { problem: 'requested_at: is required when the line has no external_request_id: a key derived from subject_user_id alone would answer every later request of this subject with the first; give requested_at (when the subject asked) or your own external_request_id' };
    }
    // The same instant however it is written (Z, +00:00, .000Z) is the same request.
    const instant = content.requested_at === undefined ? {} : { requested_at: new Date(content.requested_at).toISOString() };
    const signature = contentKey({ ...content, ...instant }, 'external_request_id');
    const external = given ?? signature;
    const earlier = seen.get(digest(external));
    if (earlier !== undefined && earlier.signature !== digest(signature)) {
      return { problem: `external_request_id: ${JSON.stringify(external)} is on line ${earlier.line} too, for another request: the service would answer this one with line ${earlier.line}'s and file nothing for it` };
    }
    if (earlier === undefined && seen.size < IDS_COMPARED) seen.set(digest(external), { signature: digest(signature), line });
    return { request: { ...checked.data, external_request_id: external } };
  };
}

/** The action of the command declared in send-command.ts, loaded when it runs. */
export const deletionRequestSendAction: Action<typeof deletionRequestSend.flags> = async (ctx: Context, command, flags) => {
  const options = parseFlags(flags, command.opts());
  const [file] = positional(command) as [string | undefined];
  const run = await sendEachLine(ctx, fileOrStdin(file, ctx.io.stdinIsTTY), options, {
    command: 'deletion-request',
    checkpointWhat: 'a csafe deletion-request send checkpoint',
    check: requestCheck(),
    // An external id on a line of another shard, or before --from-line, is filed by another worker or was by an earlier run.
    checksAgainstEarlierLines: true,
    send: postDeletionRequest,
    // Every line carries an external_request_id: a repeat answers the request first filed.
    replaySafe: true,
    printed: (line, request, filed) => lineWithAnswer({ line, subject_user_id: request.subject_user_id }, filed),
    view: filedView,
    spinner: { start: 'Filing deletion requests…', progress: (counts) => `Accepted ${counts.sent}, failed ${counts.failed}` },
    // A repeat of a request filed before is answered as it was: accepted, not filed anew.
    summary: (counts) => `${countOf(counts.sent, 'deletion request')} accepted`,
    resendCommand: (input) => `deletion-request send ${shellWord(input)}`,
  });
  return lineRunOutcome(run);
};
