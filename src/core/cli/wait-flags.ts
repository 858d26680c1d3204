// The flags of a verb that waits (wait.ts does the waiting), as data: `--help` loads this, not that.

import type { Flags } from './flags.js';

/**
 * The declarations of a verb's --wait (`help`: what it waits for) and --timeout (`example`: a wait
 * that suits the thing waited for).
 */
export const waitFlags = (help: string, example: string) => ({
  wait: { type: 'switch', help },
  timeout: { type: 'text', value: 'duration', help: `with --wait: how long to wait, e.g. ${example} (default: for ever)` },
}) satisfies Flags;
