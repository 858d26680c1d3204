import { collect } from '../../core/cli/bulk-flags.js';
import type { Command } from 'commander';
import { CONTENT_TYPES } from '../../schemas/names.js';
import type { App } from '../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';

export function registerSettingsPut(group: Command, app: App): void {
  const verb = group
    .command('put')
    .description('Create or replace the schema of a namespace (PUT /v1/data/{namespace}/settings)')
    .argument('<namespace>', 'the namespace')
    .argument('[file]', 'the schema: a JSON object mapping field names to definitions, or {"schema": {...}}; `-` reads stdin')
    .option('--field <name:content_type[:display_hint]>', `a field, instead of a file (repeatable); content_type is one of ${CONTENT_TYPES.join(', ')}, or empty`, collect)
    .addHelpText('after', `
Every definition is checked before sending; each problem is named with its line and path.`);
  addHelpSections(verb, {
    examples: [
      'csafe settings put listings schema.json',
      'csafe settings put listings --field photo:image_url:primary_image_url --field title::title --field created:datetime',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./put.js')).settingsPutAction(ctx, command)));
}
