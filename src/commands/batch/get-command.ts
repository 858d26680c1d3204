import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { waitFlags } from '../../core/cli/wait-flags.js';
import type { VerbDecl } from '../declaration.js';
import { downloadFlag } from './shared/download-flag.js';

// `csafe batch get`: its declaration — flags, help and examples.

export const batchGet = {
  name: 'get',
  description: 'Show a batch: its status and five counts (GET /v1/batches/{id})',
  args: [{ name: '<batch-id>', help: 'as printed by `batch create`' }],
  flags: {
    ...waitFlags('poll until SUCCESS, CANCELLED or ERROR (exit 1 unless SUCCESS), with the counts on a spinner', '30m'),
    ...downloadFlag,
  },
  details: `
Statuses: WAITING_FOR_UPLOAD, PENDING, SUCCESS, CANCELLED, ERROR (others are shown as they come).
Counts: batch_count, success_count, pending_count, error_count, cancelled_count.`,
  examples: [
    'csafe batch get bat_123',
    'csafe batch get bat_123 --wait --timeout 10m --download results.csv',
    'csafe batch get bat_123 --json | jq .success_count',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
