import type { Command } from 'commander';
import type { App } from '../app.js';
import { registerDataImport } from './import.js';

export function registerData(program: Command, app: App): void {
  const group = program.command('data').description('Namespace data: add objects, import files, follow requests to their labels');
  registerDataImport(group, app);
}
