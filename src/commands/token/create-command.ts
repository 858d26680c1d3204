import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { TOKEN_LIFETIME } from '../../schemas/names.js';
import type { VerbDecl } from '../declaration.js';

// `csafe token create`: its declaration — flags, help and examples.

export const tokenCreate = {
  name: 'create',
  description: 'Exchange the API key for a short-lived access token (POST /v1/access_tokens)',
  flags: {
    dryRun: DRY_RUN_FLAG,
    expiresIn: { type: 'text', value: 'duration', help: `lifetime, 5m..24h: a duration such as 15m, or seconds (${TOKEN_LIFETIME.minSeconds}..${TOKEN_LIFETIME.maxSeconds}; service default ${TOKEN_LIFETIME.defaultSeconds})` },
    userId: { type: 'text', value: 'id', help: 'user the token is attributed to' },
    sessionId: { type: 'text', value: 'id', help: 'opaque customer session identifier' },
  },
  examples: [
    'csafe token create --expires-in 900 --user-id u1',
    'csafe token create --expires-in 900 --json',
    'CSAFE_API_KEY=$(csafe token create --json | jq -r .access_token) csafe classify --text hi --user-id u1',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
