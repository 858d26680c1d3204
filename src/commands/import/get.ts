import { getImport } from '../../api/older-imports.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { waitTimeoutMs } from '../../core/wait.js';
import { positional, type Outcome, type Action } from '../app.js';
import { followImport, printImport } from './shared.js';

export async function importGetRun(ctx: Context, importId: string, options: { wait: boolean; timeoutMs: number }): Promise<Outcome | void> {
  if (importId === '') throw new UsageError('<import-id> is empty', { hint: 'give the id `csafe import create` printed, e.g. imp_…' });
  if (options.wait) return followImport(ctx, importId, options.timeoutMs);
  const record = await getImport(await ctx.http(), importId);
  await printImport(ctx.io, await ctx.outputFormat('single'), record);
}

/** The action of registerImportGet (get-command.ts), loaded when the command runs. */
export const importGetAction: Action = async (ctx, command) => {
  const [importId] = positional(command) as [string];
  const options = command.opts() as { wait?: boolean; timeout?: string };
  return importGetRun(ctx, importId, { wait: Boolean(options.wait), timeoutMs: waitTimeoutMs(options) });
};
