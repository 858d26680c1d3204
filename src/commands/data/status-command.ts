import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { waitFlags } from '../../core/cli/wait-flags.js';
import type { VerbDecl } from '../declaration.js';

// `csafe data status`: its declaration — flags, help and examples.

export const dataStatus = {
  name: 'status',
  description: 'Show an add or import request (GET /v1/data/{namespace}/requests/{requestId})',
  args: [
    { name: '<namespace>', help: 'the namespace' },
    { name: '<request-id>', help: 'as printed by `data add` or `data import`' },
  ],
  flags: waitFlags('poll until the request has succeeded or failed (exit 1 unless it succeeded)', '30m'),
  details: `
On a terminal, an add request is a table of its objects, one row each: ID, STATUS (succeeded, or
failed for an object the service could not process), LABELS (label:decision, …), URL (where to
review it) and ERROR (why it failed); an import request is a summary (request_id, namespace, status,
data_count, data_url, data_expires_at, then error when it failed). Long text is cut to the
terminal's width (--wide shows it whole); ids and URLs never are, and labels show match first. In a pipe, or with --json, the record is printed as the
service returned it, as JSON; --wait prints the same once the request has ended. A record over
5 MiB, which the service answers 413, is read from …/results/download-url instead and printed as
it downloads, with its namespace, request_id, status and data.`,
  examples: [
    'csafe data status listings req_123 --wait --timeout 30m',
    "csafe data status listings req_123 --json | jq '.data[].output.labels'",
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
