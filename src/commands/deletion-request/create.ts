import { fileDeletionRequest } from '../../api/deletions.js';
import type { Context } from '../../context.js';
import { flagOfField } from '../../core/cli/flags.js';
import { parseFlags } from '../../core/cli/options.js';
import { UsageError } from '../../core/errors.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { deletionRequestSchema, type DeletionRequest } from '../../schemas/deletions.js';
import type { Action } from '../app.js';
import type { deletionRequestCreate } from './create-command.js';

// `csafe deletion-request create`: files one deletion request, checked before it is sent.

const FLAG_OF_FIELD: Record<string, keyof typeof deletionRequestCreate.flags> = {
  subject_user_id: 'subjectUserId',
  external_request_id: 'externalRequestId',
  requested_at: 'requestedAt',
};

function deletionRequest(options: { subjectUserId?: string; externalRequestId?: string; requestedAt?: string }): DeletionRequest {
  const parsed = deletionRequestSchema.safeParse({
    subject_user_id: options.subjectUserId,
    ...(options.externalRequestId !== undefined && { external_request_id: options.externalRequestId }),
    ...(options.requestedAt !== undefined && { requested_at: options.requestedAt }),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new UsageError(`${flagOfField(FLAG_OF_FIELD, issue.path[0]!) ?? 'deletion request'}: ${issue.message}`);
}

/** The action of the command declared in create-command.ts, loaded when it runs. */
export const deletionRequestCreateAction: Action<typeof deletionRequestCreate.flags> = async (ctx: Context, command, flags) => {
  const request = deletionRequest(parseFlags(flags, command.opts()));
  const format = await ctx.outputFormat('single');
  const filed = await fileDeletionRequest(await ctx.http(), request);
  await printResult(ctx.io, format, filed, recordView(filed));
};
