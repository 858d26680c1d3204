import type { Command } from 'commander';
import type { App } from '../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';

export function registerStreamWatch(group: Command, app: App): void {
  const verb = group
    .command('watch')
    .description('Monitor a livestream at its address (POST /v1/streams/{namespace}); returns at once')
    .argument('<namespace>', 'the namespace')
    .option('--id <id>', 'your identifier of the stream; its parts are sent under the same id')
    .option('--url <url>', 'the stream\'s address: an absolute http, https, rtmp, rtmps, rtsp or srt URL')
    .addHelpText('after', `
Prints the accepted request (request id and status): a table on a terminal, JSON in a pipe or
with --json. The address is checked before anything is sent (exit 2 when it is not one).`);
  addHelpSections(verb, {
    examples: [
      'csafe stream watch live --id show-42 --url https://example.com/live/42.m3u8',
      'csafe stream watch live --id show-43 --url rtmp://ingest.example.com/live/43 --json',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./watch.js')).streamWatchAction(ctx, command)));
}
