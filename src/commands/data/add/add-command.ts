import type { Command } from 'commander';
import type { App } from '../../app.js';
import { addBatchFlags } from './flags.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../../core/cli/help.js';

export function registerDataAdd(group: Command, app: App): void {
  const verb = group
    .command('add')
    .description('Add objects to a namespace in batches (POST /v1/data/{namespace}); with --wait, print each object\'s labels')
    .argument('<namespace>', 'the namespace (created on first use)')
    .argument('[file]', 'JSON Lines, a JSON array, or one JSON object, each object with a string "id"; `-` reads stdin')
    .addOption(addBatchFlags.batchSize.option)
    .addOption(addBatchFlags.maxBatchBytes.option)
    .addOption(addBatchFlags.concurrency.option)
    .addOption(addBatchFlags.shard.option)
    .addOption(addBatchFlags.checkpoint.option)
    .addOption(addBatchFlags.failed.option)
    .addOption(addBatchFlags.skipInvalid.option)
    .addOption(addBatchFlags.maxConsecutiveFailures.option)
    .option('--wait', 'wait until every request has finished, then print each request as `data status` prints it (its objects with their labels and url)')
    .option('--timeout <duration>', 'with --wait: how long to wait, e.g. 30m (default: for ever)')
    .addHelpText('after', `
Every object is checked before the first request; an invalid one is named as file:line: field.
Prints one record per request (request id, status, objects, first and last line) as soon as the
service accepts it (one JSON line each in a pipe, a table at the end on a terminal); with --wait,
each request as \`data status\` prints it instead, in input order, once it and those before it have
ended (one JSON line per request in a pipe; one table row per object on a terminal, at the end). With --checkpoint, a batch that failed is not done:
the same command run again sends it (and everything not yet accepted), skipping what was. Exit
codes: the table of \`csafe --help\`, as for every bulk command; 1 also when a request ended
failed (--wait).
Once --max-consecutive-failures requests in a row could not reach the service, sending stops:
one line says so, the objects not sent are in the failed file, exit 1. Ctrl-C (exit 130) or
SIGTERM (143) prints what was accepted and the command that continues: the same command line,
which with --checkpoint sends only what was not accepted.

With --shard i/n, only the objects whose id hashes to shard i are sent: n workers given 0/n …
n-1/n add the file exactly once between them. A checkpoint belongs to one shard.`);
  addHelpSections(verb, {
    examples: [
      'csafe data add listings items.jsonl --wait',
      'csafe data add listings items.jsonl --checkpoint state.json --failed failed.jsonl',
      'csafe data add listings items.jsonl --shard 1/4 --checkpoint state-1.json',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./add.js')).dataAddAction(ctx, command)));
}
