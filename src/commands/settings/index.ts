import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerSettingsPut } from './put-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerSettings(program: Command, app: App): void {
  const group = program.command('settings').description('Namespace settings: the schema of its fields (PUT /v1/data/{namespace}/settings)');
  addGroupHelpSections(group);
  registerSettingsPut(group, app);
}
