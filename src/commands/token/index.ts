import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerTokenCreate } from './create-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerToken(program: Command, app: App): void {
  const group = program.command('token').description('Short-lived access tokens');
  addGroupHelpSections(group);
  registerTokenCreate(group, app);
}
