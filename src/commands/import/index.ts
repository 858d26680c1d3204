import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerImportCreate } from './create-command.js';
import { registerImportGet } from './get-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerImport(program: Command, app: App): void {
  const group = program
    .command('import')
    .description('Older imports: upload a JSONL file of {"type", "data"} lines (POST /v1/import); for namespace data, see `data import`');
  addGroupHelpSections(group);
  registerImportCreate(group, app);
  registerImportGet(group, app);
}
