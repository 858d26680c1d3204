import type { Command } from 'commander';
import type { App } from '../../app.js';
import { sendBatchFlags } from './flags.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../../core/cli/help.js';

export function registerEventsSend(group: Command, app: App): void {
  const verb = group
    .command('send')
    .description('Validate backend events and queue them in ordered batches (POST /v1/async/events)')
    .argument('<file>', 'JSON Lines, a JSON array, or one JSON object; `-` reads stdin')
    .option('--dry-run', 'validate only: print problems and a summary, send nothing (exit 0 or 2)')
    .option('--sync', 'ingest each batch before the answer (POST /v1/events) and print each event\'s id')
    .addOption(sendBatchFlags.checkpoint.option)
    .addOption(sendBatchFlags.failed.option)
    .addOption(sendBatchFlags.skipInvalid.option)
    .option('--allow-unknown-types', 'pass events of a type the spec does not show through unchecked')
    .option('--no-auto-idempotency', 'do not add a content-derived idempotency_key to events without one')
    .addOption(sendBatchFlags.batchSize.option)
    .addOption(sendBatchFlags.maxBatchBytes.option)
    .addOption(sendBatchFlags.concurrency.option)
    .addOption(sendBatchFlags.maxConsecutiveFailures.option)
    .addOption(sendBatchFlags.shard.option)
    .addHelpText('after', `
Each user's events arrive in file order. Exit codes: the table of \`csafe --help\`, as for every
bulk command; when sending stops (a refused key, a Retry-After over --max-wait), the unsent
events are in the failed file. Once --max-consecutive-failures requests in a row could not reach
the service, sending stops: one line says so, the events not sent are in the failed file, exit 1.
Ctrl-C (exit 130) or SIGTERM (143) prints what was sent and the command that continues: the
same command line, which with --checkpoint sends only what was not acknowledged.

With --sync, stdout lists each ingested event with its input line and the service's event_id:
one NDJSON line per event, {"line":12,"event_id":"…"}, as each batch is acknowledged when piped
(or with --json); a table on a terminal. The summary then goes to stderr only.`);
  addHelpSections(verb, {
    examples: [
      'csafe events send events.jsonl --dry-run',
      'csafe events send events.jsonl --checkpoint state.json --failed failed.jsonl',
      'csafe events send big.jsonl --concurrency 8 --shard 3/16',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./send.js')).eventsSendAction(ctx, command)));
}
