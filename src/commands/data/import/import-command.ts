import { DRY_RUN_FLAG } from '../../../core/cli/flags.js';
import { SERVICE_VARIABLES } from '../../../core/cli/help.js';
import { waitFlags } from '../../../core/cli/wait-flags.js';
import type { VerbDecl } from '../../declaration.js';

// `csafe data import`: its declaration — flags, help and examples.

export const dataImport = {
  name: 'import',
  description: 'Upload a large JSONL file into a namespace (POST …/import, then PUT to the pre-signed address)',
  args: [
    { name: '<namespace>', help: 'namespace to import into' },
    { name: '[file]', help: 'JSON Lines, one data object per line; `-` or none reads stdin (kept in a temporary file first)' },
  ],
  flags: {
    dryRun: DRY_RUN_FLAG,
    ...waitFlags('poll the import until it has succeeded or failed, then print its record', '30m'),
    validate: { type: 'switch', negate: true, help: 'upload without checking every line first (for trusted dumps)' },
    schema: { type: 'text', value: 'file', help: 'a namespace schema, as `settings put` takes it, applied to the namespace with the import request (checked before anything is sent)' },
  },
  details: `
The file is streamed from disk with its Content-Length (never held in memory), with a progress
bar on a terminal. A failed upload is retried from the start (--max-retries); an expired upload
address is replaced by a new import request. Where an attempt's answer was lost, the request is
looked up before another is made or the upload reported failed: a file that arrived is not
imported twice. The upload has no overall time limit, only
--request-timeout with no byte moving; every other request is bounded by --request-timeout.
With --schema the import is requested at POST …/requests/upload-url (the current docs' name for
it), which takes the schema; a service without it (404 or 405) gets PUT …/settings, then POST
…/import, and csafe remembers so per profile for a week (service.json beside config.json).
(The older import, a file of {"type", "data"} lines sent to POST /v1/import, is \`csafe import create\`.)`,
  examples: [
    'csafe data import listings examples/listings.jsonl --wait',
    'zcat examples/listings.jsonl.gz | csafe data import listings - --no-validate',
    'csafe data import listings examples/listings.jsonl --wait --timeout 30m --json | jq .data_count',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
