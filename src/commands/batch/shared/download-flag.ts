import type { Flags } from '../../../core/cli/flags.js';

/** The --download of `batch create` and `batch get`: the result of the batch waited for (shared/wait.ts, followOptions). */
export const downloadFlag = {
  download: { type: 'text', value: 'file', help: 'with --wait: write the result CSV to this file once the batch has succeeded' },
} satisfies Flags;
