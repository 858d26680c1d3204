import { DRY_RUN_FLAG } from '../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import { waitFlags } from '../../core/cli/wait-flags.js';
import type { VerbDecl } from '../declaration.js';

// `csafe import create`: its declaration — flags, help and examples.

export const importCreate = {
  name: 'create',
  description: 'Create an import and upload a JSONL file to it (POST /v1/import, then PUT to the pre-signed address)',
  args: [{ name: '[file]', help: 'JSON Lines, one {"type": …, "data": {…}} per line, kinds mixed; `-` or none reads stdin (kept in a temporary file first)' }],
  flags: { dryRun: DRY_RUN_FLAG, ...waitFlags('poll the import until it is COMPLETE or FAILED (exit 1 unless COMPLETE), then print it', '10m') },
  details: `
This is the older import (POST /v1/import): its lines carry their own kind of data, and it is
followed with \`csafe import get\`. To load objects into a namespace, use \`csafe data import\`.

Every line is checked before anything is sent; a bad line is reported as file:line: field: …
(exit 2). The file is then streamed from disk with its Content-Length and Content-Type
application/jsonl, with a progress bar on a terminal. The upload address lives 1 hour: when it
has expired, a new import is created and the old one's id named on stderr, unless the old one,
looked up, has the file an attempt whose answer was lost had uploaded.`,
  examples: [
    'csafe import create examples/records.jsonl --wait',
    'cat examples/records.jsonl | csafe import create - --json',
    'csafe import create examples/records.jsonl --wait --timeout 10m --json | jq -r .import_status',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
