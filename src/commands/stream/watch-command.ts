import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe stream watch`: its declaration — flags, help and examples.

export const streamWatch = {
  name: 'watch',
  description: 'Monitor a livestream at its address (POST /v1/streams/{namespace}); returns at once',
  args: [{ name: '<namespace>', help: 'the namespace' }],
  flags: {
    dryRun: DRY_RUN_FLAG,
    id: { type: 'text', value: 'id', help: 'your identifier of the stream; its parts are sent under the same id' },
    url: { type: 'text', value: 'url', help: 'the stream\'s address: an absolute http, https, rtmp, rtmps, rtsp or srt URL' },
  },
  details: `
Prints the accepted request (request id and status): a table on a terminal, JSON in a pipe or
with --json. The address is checked before anything is sent (exit 2 when it is not one).`,
  examples: [
    'csafe stream watch live --id show-42 --url https://example.com/live/42.m3u8',
    'csafe stream watch live --id show-43 --url rtmp://ingest.example.com/live/43 --json',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
