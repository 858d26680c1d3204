import { lineRequestFlags } from '../../core/cli/bulk-flags.js';
import { SERVICE_VARIABLES } from '../../core/cli/help.js';
import type { VerbDecl } from '../declaration.js';

// `csafe deletion-request send`: its declaration — flags, help and examples.

export const deletionRequestSend = {
  name: 'send',
  description: "File a JSONL file of data subjects' deletion requests, one request each (POST /v1/deletion_requests)",
  args: [{ name: '[file]', help: 'JSON Lines, one request a line: {subject_user_id, external_request_id?, requested_at?}; `-` or none reads stdin' }],
  flags: lineRequestFlags('deletion-request', 'requests'),
  details: `
Every line is checked before the first request; an invalid one is named as file:line: field and
nothing is sent (exit 2), unless --skip-invalid sets it aside. A line without an
external_request_id needs a requested_at, and is sent with an id derived from the two (csafe-…,
the same for the same subject and instant however it is written), so a retry or a re-run of the
same file never files a request twice: the service answers a repeat with the request first filed.
Two lines alike in both are one request; an external id on two lines of different requests is
refused. Prints each line's deletion_request_id, status and external_request_id in input order,
one JSON line each in a pipe, one array with --json, a table on a terminal. A line that failed
goes to the --failed file, as read: resend it, or with --checkpoint run the same command again.
Ctrl-C (exit 130) or SIGTERM (143) waits for the answers in flight, then prints the command that
continues: with --checkpoint the same one, else the same one with --from-line.`,
  examples: [
    'csafe deletion-request send examples/deletion-requests.jsonl',
    'csafe deletion-request send examples/deletion-requests.jsonl --checkpoint erasures.json --failed erasures-failed.jsonl',
  ],
  environment: [...SERVICE_VARIABLES, 'COLUMNS'],
} satisfies VerbDecl;
