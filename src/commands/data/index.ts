import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerDataAdd } from './add/add-command.js';
import { registerDataImport } from './import/import-command.js';
import { registerDataStatus } from './status-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerData(program: Command, app: App): void {
  const group = program.command('data').description('Namespace data: add objects, import files, follow requests to their labels');
  addGroupHelpSections(group);
  registerDataAdd(group, app);
  registerDataImport(group, app);
  registerDataStatus(group, app);
}
