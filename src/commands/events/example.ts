import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { EVENT_EXAMPLES } from '../../schemas/event-examples.js';
import { EVENT_TYPES, type EventType } from '../../schemas/events.js';
import { positional } from '../app.js';
import type { Action } from '../app.js';

// `csafe events example`: prints a valid example event of one variant, or of all.

export async function eventsExampleRun(ctx: Context, type: string | undefined): Promise<void> {
  if (type === undefined) return ctx.io.out(EVENT_TYPES.map((t) => JSON.stringify(EVENT_EXAMPLES[t]) + '\n').join(''));
  if (!(EVENT_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`unknown event type "${type}": expected one of ${EVENT_TYPES.join(', ')}`);
  }
  const format = await ctx.outputFormat('single');
  // An event has no table form: JSON unless NDJSON was asked for.
  await printResult(ctx.io, format === 'table' ? 'json' : format, EVENT_EXAMPLES[type as EventType], recordView(EVENT_EXAMPLES[type as EventType]));
}

/** The action of the command declared in example-command.ts, loaded when it runs. */
export const eventsExampleAction: Action = (ctx, command) => eventsExampleRun(ctx, positional(command)[0] as string | undefined);
