import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerDecisionCreate } from './create-command.js';
import { registerDecisionGet } from './get-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerDecision(program: Command, app: App): void {
  const group = program.command('decision').description('Decisions (older operations): one piece of content reviewed asynchronously');
  addGroupHelpSections(group);
  registerDecisionCreate(group, app);
  registerDecisionGet(group, app);
}
