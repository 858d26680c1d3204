import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe data download`: its declaration — flags, help and examples.

export const dataDownload = {
  name: 'download',
  description: "Stream a request's output (an import's processed objects, an add request's) to a file or stdout",
  args: [
    { name: '<namespace>', help: 'the namespace' },
    { name: '<request-id>', help: 'as printed by `data import` or `data add`' },
    { name: '[file]', help: 'write to this file (replaced whole, never left half-written; a FIFO or device is written into); `-`, /dev/stdout or none: stdout' },
  ],
  flags: {},
  details: `
Prints the output as the service stores it (one JSON object per line, each object with its
labels), byte for byte in a pipe or a file; on a terminal, control characters are shown in caret
notation. With -o ndjson each object is checked and written as one compact JSON line; with
--json (-o json) the objects are one array.

The address comes from GET …/requests/{id}/results/download-url (the service's docs), for either
kind of request; a service without it (404 or 405) gives an import's data_url in its record. The
output is streamed from its pre-signed address (valid until data_expires_at; an expired one is
replaced by looking the request up again) and never held in memory.`,
  examples: [
    'csafe data import listings examples/listings.jsonl --wait --json | jq -r .request_id',
    'csafe data download listings req_456 labelled.jsonl',
    "csafe data download listings req_456 -o ndjson | jq -c '{id, labels: .output.labels}'",
  ],
  environment: SERVICE_VARIABLES,
} satisfies VerbDecl;
