import { fileDeletionRequest } from '../../api/deletions.js';
import type { Context } from '../../context.js';
import { sendEachLine, type CheckedRequest } from '../../core/bulk/line-requests.js';
import { parseFlags } from '../../core/cli/options.js';
import { fileOrStdin } from '../../core/input/sources.js';
import { contentKey } from '../../core/json/canonical.js';
import type { StreamView } from '../../core/terminal/output.js';
import { countOf } from '../../core/terminal/words.js';
import { deletionRequestSchema, type DeletionRequest, type DeletionResponse } from '../../schemas/deletions.js';
import { describeProblem, problemsFromZod } from '../../schemas/issues.js';
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
    { header: 'SUBJECT', value: (r) => r.subject_user_id },
    { header: 'DELETION REQUEST', value: (r) => r.deletion_request_id },
    { header: 'STATUS', value: (r) => r.status },
    { header: 'EXTERNAL ID', value: (r) => r.external_request_id ?? '' },
  ],
  order: (a, b) => a.line - b.line,
};

/** A line's request as the service takes it, with an external_request_id derived from its content when it has none; or every field it would refuse. */
function checkRequest(value: unknown): CheckedRequest<DeletionRequest> {
  const parsed = deletionRequestSchema.safeParse(value);
  if (!parsed.success) return { problem: problemsFromZod(parsed.error, { schema: deletionRequestSchema, value }).map(describeProblem).join('; ') };
  const request = parsed.data;
  return { request: request.external_request_id === undefined ? { ...request, external_request_id: contentKey(request, 'external_request_id') } : request };
}

/** The action of the command declared in send-command.ts, loaded when it runs. */
export const deletionRequestSendAction: Action<typeof deletionRequestSend.flags> = async (ctx: Context, command, flags) => {
  const options = parseFlags(flags, command.opts());
  const [file] = positional(command) as [string | undefined];
  const run = await sendEachLine(ctx, fileOrStdin(file, ctx.io.stdinIsTTY), options, {
    command: 'deletion-request',
    checkpointWhat: 'a csafe deletion-request send checkpoint',
    check: checkRequest,
    send: fileDeletionRequest,
    // Every line carries an external_request_id: a repeat answers the request first filed.
    replaySafe: true,
    printed: (line, request, filed) => ({ line, subject_user_id: request.subject_user_id, ...filed }),
    view: filedView,
    spinner: { start: 'Filing deletion requests…', progress: (counts) => `Filed ${counts.sent}, failed ${counts.failed}` },
    summary: (counts) => `filed ${countOf(counts.sent, 'deletion request')}`,
  });
  return lineRunOutcome(run);
};
