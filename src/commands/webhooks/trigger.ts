import { triggerWebhook } from '../../api/emulator.js';
import type { Context } from '../../context.js';
import { parseFlags } from '../../core/cli/options.js';
import { UsageError } from '../../core/errors.js';
import { jsonObjectFlag } from '../../core/input/json-flags.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { positional, type Action } from '../app.js';
import { webhookEventTypeSchema } from '../../schemas/webhooks.js';
import type { webhooksTrigger } from './trigger-command.js';

// `csafe webhooks trigger`: the emulator sends one event to its endpoints, on demand.

/** A --data file may be as large as the control route takes. */
const MAX_DATA_BYTES = 1024 * 1024;

/** The action of the command declared in trigger-command.ts, loaded when it runs. */
export const webhooksTriggerAction: Action<typeof webhooksTrigger.flags> = async (ctx: Context, command, flags) => {
  const options = parseFlags(flags, command.opts());
  const [given] = positional(command) as [string];
  const checked = webhookEventTypeSchema.safeParse(given);
  if (!checked.success) throw new UsageError(`<event>: unknown event "${given}": ${checked.error.issues[0]!.message}`);
  const type = checked.data;
  const data = options.data === undefined ? undefined : await jsonObjectFlag('--data', options.data, { stdin: ctx.io.stdin, maxBytes: MAX_DATA_BYTES, signal: ctx.signal });
  const format = await ctx.outputFormat('single');
  const triggered = await triggerWebhook(await ctx.http(), { type, ...(options.namespace !== undefined && { namespace: options.namespace }), ...(options.id !== undefined && { id: options.id }), ...(data !== undefined && { data }) });
  await printResult(ctx.io, format, triggered, recordView(triggered));
};
