import { fileDeletionRequest } from '../../api/deletions.js';
import type { Context } from '../../context.js';
import { bodyFromFlags, parseFlags } from '../../core/cli/options.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { deletionRequestSchema } from '../../schemas/deletions.js';
import type { Action } from '../app.js';
import type { deletionRequestCreate } from './create-command.js';

// `csafe deletion-request create`: files one deletion request, checked before it is sent.

const FLAG_OF_FIELD: Record<string, keyof typeof deletionRequestCreate.flags> = {
  subject_user_id: 'subjectUserId',
  external_request_id: 'externalRequestId',
  requested_at: 'requestedAt',
};

/** The action of the command declared in create-command.ts, loaded when it runs. */
export const deletionRequestCreateAction: Action<typeof deletionRequestCreate.flags> = async (ctx: Context, command, flags) => {
  const request = bodyFromFlags(deletionRequestSchema, FLAG_OF_FIELD, parseFlags(flags, command.opts()), 'deletion request');
  const format = await ctx.outputFormat('single');
  const filed = await fileDeletionRequest(await ctx.http(), request);
  await printResult(ctx.io, format, filed, recordView(filed));
};
