import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerEventsExample } from './example-command.js';
import { registerEventsSend } from './send/send-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerEvents(program: Command, app: App): void {
  const group = program.command('events').description('Backend events: validate and queue them (POST /v1/async/events)');
  addGroupHelpSections(group);
  registerEventsSend(group, app);
  registerEventsExample(group, app);
}
