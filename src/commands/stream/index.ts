import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerStreamParts } from './parts/parts-command.js';
import { registerStreamWatch } from './watch-command.js';
import { addGroupHelpSections } from '../../core/cli/help.js';

export function registerStream(program: Command, app: App): void {
  const group = program.command('stream').description('Livestreams: monitor a stream, push chat, transcripts, frames and audio as they happen');
  addGroupHelpSections(group);
  registerStreamWatch(group, app);
  registerStreamParts(group, app);
}
