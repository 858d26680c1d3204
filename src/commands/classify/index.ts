import type { Command } from 'commander';
import type { App } from '../app.js';
import { collect } from '../../core/cli/bulk-flags.js';
import { classifyBatchFlags } from './flags.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';

export function registerClassify(program: Command, app: App): void {
  const verb = program
    .command('classify')
    .description('Classify text and images synchronously (POST /v1/content)')
    .argument('[files...]', 'text files and images (PNG, JPEG, GIF, WebP); `-` reads stdin; an empty file is refused (exit 2)')
    .option('--text <text>', 'text to classify (repeatable); empty or only white space is refused (exit 2)', collect)
    .option('--user-id <id>', 'stable identifier of the user (default: config user_id)')
    .option('--content-id <id>', 'your identifier for the content')
    .option('--metadata <key=value|@file.json>', 'metadata (repeatable), at most 8 KB serialized', collect)
    .option('--api-version <version>', 'service version: 2026-08-11 (current) or 2026-08-05')
    .option('--fail-on <decision>', 'exit 4 when any label reaches match, or review (review includes match)')
    .option('--batch <file.jsonl>', 'classify each line of a JSONL file (`-` for stdin); results as NDJSON')
    .addOption(classifyBatchFlags.concurrency.option)
    .addOption(classifyBatchFlags.failed.option)
    .addOption(classifyBatchFlags.skipInvalid.option)
    .addOption(classifyBatchFlags.maxConsecutiveFailures.option)
    .option('--from-line <n>', 'with --batch: start at line n of the input, skipping the lines before it (an interrupted run prints the command)')
    .addOption(classifyBatchFlags.shard.option)
    .addHelpText('after', `
With --batch, the run stops once --max-consecutive-failures requests in a row could not reach
the service: one line says so, the lines not classified go to the --failed file, exit 1. Ctrl-C
(exit 130) or SIGTERM (143) prints what was done and the command that continues: the same one
with --from-line set to the first line not done.`);
  addHelpSections(verb, {
    examples: [
      'csafe classify post.txt photo.jpg --user-id u1',
      `csafe classify --text "hello" --user-id u1 --json | jq '.labels[] | select(.decision=="match")'`,
      'csafe classify --batch examples/items.jsonl --user-id u1 --shard 0/2 > results-0.ndjson',
    ],
    environment: [...SERVICE_VARIABLES, 'CSAFE_USER_ID', 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./run.js')).runClassify(ctx, command)));
}
