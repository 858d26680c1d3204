import { putSettings } from '../../api/data.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { printResult, tableView } from '../../core/terminal/output.js';
import { positional } from '../app.js';
import { parseNamespace } from '../namespace.js';
import { readSchemaFile, schemaFromFields, schemaOrRefusal } from '../namespace-schema.js';
import type { Action } from '../app.js';
import { parseFlags } from '../../core/cli/options.js';
import type { settingsPut } from './put-command.js';

// `csafe settings put`: builds a namespace's schema from a file or --field flags, checks it, and sends
// it.

export async function settingsPutRun(ctx: Context, namespace: string, file: string | undefined, fields: readonly string[]): Promise<void> {
  if (file !== undefined && fields.length > 0) throw new UsageError('give a schema FILE or --field, not both');
  if (file === undefined && fields.length === 0 && ctx.io.stdinIsTTY) throw new UsageError('no schema: give a FILE (`-` for stdin) or --field name:content_type[:display_hint]');
  // Nothing named and something piped in: the schema is on stdin, as for every command that reads a file.
  const path = file ?? (fields.length === 0 ? '-' : undefined);
  const input = path === undefined ? schemaFromFields(fields) : await readSchemaFile(path, ctx.io.stdin, ctx.signal);
  const schema = schemaOrRefusal(ctx.io, input, path !== undefined);
  const format = await ctx.outputFormat('single');
  const response = await putSettings(await ctx.http(), namespace, schema);
  await printResult(ctx.io, format, response, tableView([response], [
    { header: 'NAMESPACE', value: (r) => r.namespace },
    { header: 'STATUS', value: (r) => r.status },
  ]));
}

/** The action of the command declared in put-command.ts, loaded when it runs. */
export const settingsPutAction: Action<typeof settingsPut.flags> = async (ctx, command, flags) => {
      const [namespace, file] = positional(command) as [string, string | undefined];
      const { field: fields } = parseFlags(flags, command.opts());
      return settingsPutRun(ctx, parseNamespace(namespace), file, fields);
    };
