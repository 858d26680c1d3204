import { PROFILE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe auth login`: its declaration — flags, help and examples.

export const authLogin = {
  name: 'login',
  description: 'Check an API key with the service and store it in the profile (asked for without echo, or read from stdin)',
  flags: {
    withToken: { type: 'switch', help: 'read the key from stdin' },
    verify: { type: 'switch', negate: true, help: 'store the key without checking it with the service' },
  },
  details: `
The key is checked first, with one request the service answers without doing
any work (POST /v1/content with an empty body), against the base URL from
--base-url, CSAFE_BASE_URL or the profile. A refused key exits 3, an unreachable
service 1, no base URL 2 (before the key is read): nothing is stored then.

The key is stored in the config file (mode 0600); --base-url is stored too when
given. The profile is created when it does not exist. CSAFE_API_KEY and
--api-key override the stored key: login warns when either is set.`,
  examples: ['csafe auth login', 'echo "$KEY" | csafe auth login --with-token', 'echo "$KEY" | csafe --profile staging auth login --with-token --no-verify'],
  environment: ['CSAFE_API_KEY', 'CSAFE_BASE_URL', ...PROFILE_VARIABLES, 'CSAFE_REQUEST_TIMEOUT', 'CSAFE_MAX_RETRIES'],
} satisfies VerbDecl;
