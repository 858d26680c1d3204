import { getImport } from '../../api/older-imports.js';
import type { Context } from '../../context.js';
import { requireId } from '../../core/cli/options.js';
import { waitOptions, type WaitOptions } from '../../core/cli/wait.js';
import { positional, type Outcome } from '../app.js';
import { followImport, printImport } from './shared.js';
import type { Action } from '../app.js';
import { parseFlags } from '../../core/cli/options.js';
import type { importGet } from './get-command.js';

// `csafe import get`: shows an import, waiting for it to settle when asked.

export async function importGetRun(ctx: Context, importId: string, options: WaitOptions): Promise<Outcome | void> {
  requireId(importId, '<import-id>', { command: 'csafe import create', id: 'imp_…' });
  if (options.wait) return followImport(ctx, importId, options.timeoutMs);
  const record = await getImport(await ctx.http(), importId);
  await printImport(ctx.io, await ctx.outputFormat('single'), record);
}

/** The action of the command declared in get-command.ts, loaded when it runs. */
export const importGetAction: Action<typeof importGet.flags> = async (ctx, command, flags) => {
      const [importId] = positional(command) as [string];
      return importGetRun(ctx, importId, waitOptions(parseFlags(flags, command.opts())));
    };
