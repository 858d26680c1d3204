import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { printResult, recordView } from '../../core/output.js';
import { EVENT_EXAMPLES } from '../../schemas/event-examples.js';
import { EVENT_TYPES, type EventType } from '../../schemas/events.js';
import { positional, type App } from '../app.js';
import { addHelpSections, PROFILE_VARIABLES } from '../../core/help.js';

export function registerEventsExample(group: Command, app: App): void {
  addHelpSections(
    group
      .command('example')
      .description('Print a valid example event of a variant (all seven as JSON Lines when none is named)')
      .argument('[type]', EVENT_TYPES.join(', ')),
    {
      examples: ['csafe events example product_changed', 'csafe events example > events.jsonl', `csafe events example user_report | jq -c '.user_id = "u42"' >> events.jsonl`],
      environment: PROFILE_VARIABLES,
    },
  )
    .action(app.action((ctx, command) => eventsExampleRun(ctx, positional(command)[0] as string | undefined)));
}

export async function eventsExampleRun(ctx: Context, type: string | undefined): Promise<void> {
  if (type === undefined) return ctx.io.out(EVENT_TYPES.map((t) => JSON.stringify(EVENT_EXAMPLES[t]) + '\n').join(''));
  if (!(EVENT_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`unknown event type "${type}": expected one of ${EVENT_TYPES.join(', ')}`);
  }
  const format = await ctx.outputFormat('single');
  // An event has no table form: JSON unless NDJSON was asked for.
  await printResult(ctx.io, format === 'table' ? 'json' : format, EVENT_EXAMPLES[type as EventType], recordView(EVENT_EXAMPLES[type as EventType]));
}
