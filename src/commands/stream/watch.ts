import { watchStream } from '../../api/streams.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { redactUrl } from '../../core/http/redact.js';
import { printResult, tableView } from '../../core/terminal/output.js';
import { watchStreamRequestSchema, type WatchStreamRequest } from '../../schemas/streams.js';
import { positional } from '../app.js';
import { parseNamespace } from '../namespace.js';
import type { Action } from '../app.js';
import { flagOfField, type OptionsOf } from '../../core/cli/flags.js';
import { parseFlags } from '../../core/cli/options.js';
import type { streamWatch } from './watch-command.js';

// `csafe stream watch`: asks the service to monitor a livestream at its address.

export type WatchOptions = Partial<OptionsOf<typeof streamWatch.flags>>;

/** The option that fills each field of the request. */
const OPTION_OF_FIELD: Record<string, keyof WatchOptions> = { id: 'id', stream_url: 'url' };

/** The request is checked with the schema the emulator uses, so the accepted schemes are written once. */
function watchRequest(options: WatchOptions): WatchStreamRequest {
  const parsed = watchStreamRequestSchema.safeParse({ id: options.id, stream_url: options.url });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0]);
  // Echoed redacted: a stream address may carry its key (a token in the query, user:password@).
  const given = field === 'stream_url' && options.url !== undefined ? `, got ${JSON.stringify(redactUrl(options.url))}` : '';
  throw new UsageError(`${flagOfField(OPTION_OF_FIELD, field) ?? field}: ${issue.message}${given}`);
}

export async function streamWatchRun(ctx: Context, namespace: string, options: WatchOptions): Promise<void> {
  const request = watchRequest(options);
  const format = await ctx.outputFormat('single');
  const accepted = await watchStream(await ctx.http(), namespace, request);
  await printResult(ctx.io, format, accepted, tableView([accepted], [
    { header: 'REQUEST_ID', value: (r) => r.requestId },
    { header: 'STATUS', value: (r) => r.status },
  ]));
}

/** The action of the command declared in watch-command.ts, loaded when it runs. */
export const streamWatchAction: Action<typeof streamWatch.flags> = async (ctx, command, flags) => {
      const [namespace] = positional(command) as [string];
      return streamWatchRun(ctx, parseNamespace(namespace), parseFlags(flags, command.opts()));
    };
