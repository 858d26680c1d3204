import type { Context } from '../../context.js';
import { positional, type Outcome } from '../app.js';
import { parseNamespace } from '../namespace.js';
import { printRequestRecord } from './shared/render.js';
import { requestRecord } from './shared/output.js';
import { waitAndPrintRecord } from './shared/wait.js';
import { waitOptions, type WaitOptions } from '../../core/cli/wait.js';
import type { Action } from '../app.js';
import { parseFlags } from '../../core/cli/options.js';
import type { dataStatus } from './status-command.js';

// `csafe data status`: shows an add or import request, waiting for it to end when asked.

export async function dataStatusRun(ctx: Context, namespace: string, requestId: string, options: WaitOptions): Promise<Outcome | void> {
  if (options.wait) return waitAndPrintRecord(ctx, namespace, requestId, options.timeoutMs);
  const record = await requestRecord({ http: await ctx.http(), io: ctx.io, now: () => ctx.now(), argv: ctx.argv }, namespace, requestId);
  await printRequestRecord(ctx.io, await ctx.outputFormat('single'), record);
}

/** The action of the command declared in status-command.ts, loaded when it runs. */
export const dataStatusAction: Action<typeof dataStatus.flags> = async (ctx, command, flags) => {
      const [namespace, requestId] = positional(command) as [string, string];
      return dataStatusRun(ctx, parseNamespace(namespace), requestId, waitOptions(parseFlags(flags, command.opts())));
    };
