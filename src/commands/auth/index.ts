import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerAuthLogin } from './login-command.js';
import { registerAuthLogout } from './logout-command.js';
import { registerAuthStatus } from './status-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerAuth(program: Command, app: App): void {
  const group = program.command('auth').description('Store, show and remove the API key');
  addGroupHelpSections(group);
  registerAuthLogin(group, app);
  registerAuthStatus(group, app);
  registerAuthLogout(group, app);
}
