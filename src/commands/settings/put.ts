import type { Command } from 'commander';
import { putSettings } from '../../api/data.js';
import type { Context } from '../../context.js';
import { InputError, UsageError } from '../../core/errors.js';
import { printResult, tableView } from '../../core/output.js';
import { CONTENT_TYPES } from '../../schemas/data.js';
import { positional, type App } from '../app.js';
import { parseNamespace } from '../namespace.js';
import { readSchemaFile, schemaFromFields } from './schema-input.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/help.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

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
    .action(app.action(async (ctx, command) => {
      const [namespace, file] = positional(command) as [string, string | undefined];
      const { field: fields = [] } = command.opts() as { field?: string[] };
      return settingsPutRun(ctx, parseNamespace(namespace), file, fields);
    }));
}

export async function settingsPutRun(ctx: Context, namespace: string, file: string | undefined, fields: readonly string[]): Promise<void> {
  if (file !== undefined && fields.length > 0) throw new UsageError('give a schema FILE or --field, not both');
  if (file === undefined && fields.length === 0) throw new UsageError('no schema: give a FILE (`-` for stdin) or --field name:content_type[:display_hint]');
  const input = file === undefined ? schemaFromFields(fields) : await readSchemaFile(file, ctx.io.stdin, ctx.signal);
  if (input.problems) {
    for (const problem of input.problems) ctx.io.warn(problem);
    const summary = `the schema has ${input.problems.length} ${input.problems.length === 1 ? 'problem' : 'problems'}; nothing was sent`;
    throw file === undefined ? new UsageError(summary) : new InputError(summary);
  }
  const format = await ctx.outputFormat('single');
  const response = await putSettings(await ctx.http(), namespace, input.schema);
  await printResult(ctx.io, format, response, tableView([response], [
    { header: 'NAMESPACE', value: (r) => r.namespace },
    { header: 'STATUS', value: (r) => r.status },
  ]));
}
