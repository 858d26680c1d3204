import type { Command } from 'commander';
import { getImport } from '../../api/older-imports.js';
import type { Context } from '../../context.js';
import { requireId } from '../../core/options.js';
import { waitOptions, waitTimeoutHelp, type WaitOptions } from '../../core/wait.js';
import { positional, type App, type Outcome } from '../app.js';
import { followImport, printImport } from './shared.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/help.js';

export function registerImportGet(group: Command, app: App): void {
  const verb = group
    .command('get')
    .description('Show an import (GET /v1/import/{import_id}): its status, file and creation time')
    .argument('<import-id>', 'as printed by `import create`')
    .option('--wait', 'poll until the import is COMPLETE or FAILED (exit 1 when FAILED)')
    .option('--timeout <duration>', waitTimeoutHelp('10m'))
    .addHelpText('after', `
Statuses: WAITING_FOR_UPLOAD, IN_PROGRESS, COMPLETE, FAILED; any other status or field the
service sends is shown as it comes. --json prints the import as the service returned it.
(For a namespace import request, see \`csafe data status\`.)`);
  addHelpSections(verb, {
    examples: [
      'csafe import get imp_123 --wait --timeout 10m',
      'csafe import get imp_123 --json | jq -r .import_status',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => {
      const [importId] = positional(command) as [string];
      return importGetRun(ctx, importId, waitOptions(command.opts()));
    }));
}

export async function importGetRun(ctx: Context, importId: string, options: WaitOptions): Promise<Outcome | void> {
  requireId(importId, '<import-id>', { command: 'csafe import create', id: 'imp_…' });
  if (options.wait) return followImport(ctx, importId, options.timeoutMs);
  const record = await getImport(await ctx.http(), importId);
  await printImport(ctx.io, await ctx.outputFormat('single'), record);
}
