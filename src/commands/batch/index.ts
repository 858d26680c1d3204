import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerBatchCreate } from './create/create-command.js';
import { registerBatchDownload } from './download/download-command.js';
import { registerBatchGet } from './get-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerBatch(program: Command, app: App): void {
  const group = program.command('batch').description('Older batches: review a CSV of content, follow it, download the result as CSV or NDJSON');
  addGroupHelpSections(group);
  registerBatchCreate(group, app);
  registerBatchGet(group, app);
  registerBatchDownload(group, app);
}
