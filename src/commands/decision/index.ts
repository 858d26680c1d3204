import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerDecisionCreate } from './create.js';
import { registerDecisionGet } from './get.js';

export function registerDecision(program: Command, app: App): void {
  const group = program.command('decision').description('Decisions (older operations): one piece of content reviewed asynchronously');
  registerDecisionCreate(group, app);
  registerDecisionGet(group, app);
}
