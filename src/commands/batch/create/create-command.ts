import { DRY_RUN_FLAG } from '../../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../../core/cli/help.js';
import { waitFlags } from '../../../core/cli/wait-flags.js';
import type { VerbDecl } from '../../declaration.js';
import { downloadFlag } from '../shared/download-flag.js';

// `csafe batch create`: its declaration — flags, help and examples.

export const batchCreate = {
  name: 'create',
  description: 'Check a CSV and send it as a batch (POST /v1/batches, then PUT to the pre-signed address)',
  args: [{ name: '[file]', help: 'CSV with a header row and a Content column (other columns are your metadata); `-` or none reads stdin' }],
  flags: {
    dryRun: DRY_RUN_FLAG,
    type: { type: 'text', value: 'type', help: 'the kind of content to review, e.g. text (required)' },
    ...waitFlags('poll the batch until SUCCESS, CANCELLED or ERROR (exit 1 unless SUCCESS), then print it', '30m'),
    ...downloadFlag,
  },
  details: `
Every row is checked before anything is sent: a header row, a Content column (matched exactly),
as many fields on each row as in the header, no empty Content. Quoted fields may hold commas,
quotes ("") and line breaks; a byte order mark and CRLF are fine. Each bad row is reported as
file:line (exit 2). The file is streamed from disk with a progress bar on a terminal; an
expired upload address is replaced by a new batch, unless the old one, looked up, has the file
an attempt whose answer was lost had uploaded.`,
  examples: [
    'csafe batch create --type text examples/reviews.csv --wait --download results.csv',
    'csafe batch create --type text examples/reviews.csv --json | jq -r .batch_id',
    'cat examples/reviews.csv | csafe batch create --type text - --wait --timeout 10m',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
