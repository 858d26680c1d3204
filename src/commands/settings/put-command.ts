import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { CONTENT_TYPES } from '../../schemas/names.js';
import type { VerbDecl } from '../declaration.js';

// `csafe settings put`: its declaration — flags, help and examples.

export const settingsPut = {
  name: 'put',
  description: 'Create or replace the schema of a namespace (PUT /v1/data/{namespace}/settings)',
  args: [
    { name: '<namespace>', help: 'the namespace' },
    { name: '[file]', help: 'the schema: a JSON object mapping field names to definitions, or {"schema": {...}}; `-`, or none with no --field and stdin piped, reads stdin' },
  ],
  flags: {
    dryRun: DRY_RUN_FLAG,
    field: { type: 'text', value: 'name:content_type[:display_hint]', help: `a field, instead of a file (repeatable); content_type is one of ${CONTENT_TYPES.join(', ')}, or empty`, repeat: true },
  },
  details: `
Every definition is checked before sending; each problem is named with its line and path.`,
  examples: [
    'csafe settings put listings examples/schema.json',
    'csafe settings put listings --field photo:image_url:primary_image_url --field title::title --field created:datetime',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
