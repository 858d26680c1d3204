import { SERVICE_VARIABLES } from '../../../core/cli/help.js';
import type { VerbDecl } from '../../declaration.js';

// `csafe batch download`: its declaration — flags, help and examples.

export const batchDownload = {
  name: 'download',
  description: 'Stream the result CSV of a finished batch to a file or stdout, or as one JSON object per row',
  args: [
    { name: '<batch-id>', help: 'a batch whose batch_status is SUCCESS' },
    { name: '[file]', help: 'write to this file (replaced whole, never left half-written; a FIFO or device is written into); `-`, /dev/stdout or none: stdout' },
  ],
  flags: {
    escapeFormulas: { type: 'switch', help: "write cells that start with =, +, - or @ with a leading ' (a spreadsheet then shows them as text, never runs them)" },
  },
  details: `
Prints the result CSV as the service stores it, byte for byte in a pipe or a file; on a terminal,
control characters are shown in caret notation (ESC as ^[). With -o ndjson each row is one JSON
object on its own line instead, keyed by the CSV header: Content, Status, Service result,
Expected result, Labels, then your own columns (a name already used, such as your own Status,
keyed "Status (column 6)"); with --json (-o json) the rows are one array.

A cell that starts with =, +, - or @ may run as a formula in a spreadsheet: on a terminal, csafe
says how many there are; --escape-formulas writes each with a leading '.

The result is streamed from its pre-signed address (valid 1 hour; an expired one is replaced by
looking the batch up again) and never held in memory.`,
  examples: [
    'csafe batch download bat_123 results.csv',
    'csafe batch download bat_123 results.csv --escape-formulas',
    `csafe batch download bat_123 -o ndjson | jq -r '.Status + " " + .Labels'`,
  ],
  environment: SERVICE_VARIABLES,
} satisfies VerbDecl;
