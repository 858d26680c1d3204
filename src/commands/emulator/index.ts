import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerEmulatorStart } from './start-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerEmulator(program: Command, app: App): void {
  const group = program.command('emulator').description('A local Content Safety Service for offline development and tests');
  addGroupHelpSections(group);
  registerEmulatorStart(group, app);
}
