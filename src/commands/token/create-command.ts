import type { Command } from 'commander';
import { TOKEN_LIFETIME } from '../../schemas/names.js';
import type { App } from '../app.js';
import { addHelpSections, SERVICE_VARIABLES } from '../../core/cli/help.js';

export function registerTokenCreate(group: Command, app: App): void {
  const verb = group
    .command('create')
    .description('Exchange the API key for a short-lived access token (POST /v1/access_tokens)')
    .option('--expires-in <seconds>', `lifetime, ${TOKEN_LIFETIME.minSeconds}..${TOKEN_LIFETIME.maxSeconds} (service default ${TOKEN_LIFETIME.defaultSeconds})`)
    .option('--user-id <id>', 'user the token is attributed to')
    .option('--session-id <id>', 'opaque customer session identifier');
  addHelpSections(verb, {
    examples: [
      'csafe token create --expires-in 900 --user-id u1',
      'csafe token create --expires-in 900 --json',
      'CSAFE_API_KEY=$(csafe token create --json | jq -r .access_token) csafe classify --text hi --user-id u1',
    ],
    environment: [...SERVICE_VARIABLES, 'COLUMNS'],
  })
    .action(app.action(async (ctx, command) => (await import('./create.js')).tokenCreateAction(ctx, command)));
}
