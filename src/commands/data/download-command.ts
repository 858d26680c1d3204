import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe data download`: its declaration — flags, help and examples.

export const dataDownload = {
  name: 'download',
  description: "Stream a succeeded import's processed output (its data_url) to a file or stdout",
  args: [
    { name: '<namespace>', help: 'the namespace' },
    { name: '<request-id>', help: 'an import request, as printed by `data import`' },
    { name: '[file]', help: 'write to this file (replaced whole, never left half-written; a FIFO or device is written into); `-` or none: stdout' },
  ],
  flags: {},
  details: `
Prints the output as the service stores it (one JSON object per line, each object with its
labels), byte for byte in a pipe or a file; on a terminal, control characters are shown in caret
notation. With -o ndjson each object is checked and written as one compact JSON line; with
--json (-o json) the objects are one array.

The output is streamed from its pre-signed address (valid until the record's data_expires_at; an
expired one is replaced by looking the request up again) and never held in memory. An add
request has no output file: its objects and labels are in its record (csafe data status).`,
  examples: [
    'csafe data import listings examples/listings.jsonl --wait --json | jq -r .request_id',
    'csafe data download listings req_456 labelled.jsonl',
    "csafe data download listings req_456 -o ndjson | jq -c '{id, labels: .output.labels}'",
  ],
  environment: SERVICE_VARIABLES,
} satisfies VerbDecl;
