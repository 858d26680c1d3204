import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerTokenCreate } from './create.js';

export function registerToken(program: Command, app: App): void {
  const group = program.command('token').description('Short-lived access tokens');
  registerTokenCreate(group, app);
}
