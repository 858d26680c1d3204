import { getBatch } from '../../api/batches.js';
import type { Context } from '../../context.js';
import { requireId } from '../../core/cli/options.js';
import { positional, type Outcome } from '../app.js';
import { printBatch } from './shared/render.js';
import { followBatch, followOptions, type FollowOptions } from './shared/wait.js';
import type { Action } from '../app.js';
import { parseFlags } from '../../core/cli/options.js';
import type { batchGet } from './get-command.js';

// `csafe batch get`: shows a batch's status and counts, waiting for it to finish when asked.

async function batchGetRun(ctx: Context, batchId: string, options: FollowOptions): Promise<Outcome | void> {
  requireId(batchId, '<batch-id>', { command: 'csafe batch create', id: 'bat_…' });
  if (options.wait) return followBatch(ctx, batchId, options);
  const batch = await getBatch(await ctx.http(), batchId);
  await printBatch(ctx.io, await ctx.outputFormat('single'), batch);
}

/** The action of the command declared in get-command.ts, loaded when it runs. */
export const batchGetAction: Action<typeof batchGet.flags> = async (ctx, command, flags) => {
      const [batchId] = positional(command) as [string];
      return batchGetRun(ctx, batchId, followOptions(parseFlags(flags, command.opts())));
    };
