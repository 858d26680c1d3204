import type { CommandDecl } from '../declaration.js';

// `csafe version` (and `csafe --version`): which csafe this is, built from which commit, on which Node.

export const version: CommandDecl = {
  name: 'version',
  description: 'Show csafe\'s version, the commit and date it was built from, and the Node.js running it',
  examples: ['csafe version', 'csafe version --json | jq -r .commit', 'csafe --version'],
  environment: [],
  run: async () => (await import('./run.js')).versionAction,
};
