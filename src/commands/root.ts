// What `csafe` itself says, above its commands: its description, the exit codes every command
// shares and its examples. `csafe --help` (main.ts) and the man pages are made from them.

export const ROOT_DESCRIPTION = 'Command-line client for the Content Safety Service, with a local emulator';

/** The exit-code table (README "Exit codes", `csafe --help`, the man pages): main.ts's exitCodeOfError and exitCodeOfOutcome keep to it. */
export const EXIT_CODES: ReadonlyArray<readonly [string, string]> = [
  ['0', 'everything succeeded'],
  ['1', 'nothing this run sent succeeded, or the run stopped on a service or request failure'],
  ['2', 'invalid input or usage, nothing sent (also --skip-invalid with nothing valid left)'],
  ['3', 'credentials refused or missing'],
  ['4', 'a --fail-on condition held'],
  ['5', 'partial: some records this run sent succeeded, the rest are in the failed, unconfirmed or skip file, or were left to send when the reader of stdout went away (5 wins over 4)'],
  ['75', 'another run holds the --checkpoint (its lock): nothing was done; the same command later will do'],
  ['124', 'a wait timed out'],
  ['126, 127', 'emulator exec: its command cannot be run (126) or is not found (127); else it exits with the command\'s own code'],
  ['130, 143', 'interrupted by Ctrl-C or a closed terminal (130) or SIGTERM (143); emulator start and webhooks listen, which run until stopped, exit 0'],
];

export const ROOT_EXAMPLES: readonly string[] = [
  'csafe --emulator classify --text "hello" --user-id u1',
  `csafe classify examples/post.txt --user-id u1 --json | jq -r '.labels[].decision'`,
  'csafe data add listings examples/listings.jsonl --wait',
];

/** What every command shares that no one command's --help says, each a section of csafe(1). */
export const ROOT_TOPICS: ReadonlyArray<{ title: string; text: string }> = [
  {
    title: 'OUTPUT',
    text: `
Data goes to standard output; notes, progress and traces go to standard error. The output rule,
the same for every command: on a terminal, a table (or a key: value view of one record); when
standard output is not a terminal, JSON for a single result and NDJSON (one JSON value per line)
for a stream of results (classify --batch and --each, data add, events send --sync); \`--json\`
is one JSON document everywhere, a stream's results one array; TSV only with \`-o tsv\`. A
command that waits prints what the status command it ends in prints; it waits only while the
status is one the spec says is under way: at a status the spec does not list it stops, says so
on stderr and exits 1, as that status may never change. Every command that reads a
file reads standard input when the file is \`-\`, or left out with something piped in. Tables
have no borders; long cells of text are cut with an ellipsis to fit the terminal width (COLUMNS
overrides it), and \`--wide\` shows them whole; an id, a token or a URL (a value without white
space) is never cut, and a pre-signed URL shows its signature as [REDACTED] (JSON and TSV keep it
whole); labels show the most decisive first; a column empty in every row is left
out. When the columns cannot each keep their width, each row is printed as a block of key: value
lines.`,
  },
  {
    title: 'SCALE OUT',
    text: `
\`--shard\` i/n (0 <= i < n) on \`classify --batch\`, \`data add\`, \`events send\`,
\`agent-decision send\` and \`deletion-request send\` keeps only the records whose key hashes
(SHA-256) to shard i: an object's \`id\`, an event's \`user_id\` (else content_id, else
source_id), a line's number. n workers given the same file and 0/n ... (n-1)/n cover it exactly
once between them, e.g. under GNU parallel or as a Kubernetes Indexed Job with \`--shard
"$JOB_COMPLETION_INDEX/$N"\`. A record without its key is invalid and reported by every worker.
A checkpoint records its shard: a run with another \`--shard\` (or none) is refused (exit 2), so
give each worker its own. Without \`--failed\`, each worker's failed file is named with its
shard (csafe-data-add-shard-1-of-4-failed-time.jsonl). \`classify --batch\` results keep their
\`line\`, so the workers' outputs merge back in input order with \`jq -s -c 'sort_by(.line)[]'
results-*.ndjson\`. A bad value (3/3, -1/2, a/b, 0/0) is exit 2 with the same message on every
command.`,
  },
  {
    title: 'UNREACHABLE SERVICE AND INTERRUPTS',
    text: `
The bulk commands (\`classify --batch\`, \`events send\`, \`data add\`, \`stream parts\`,
\`agent-decision send\`, \`deletion-request send\`) stop sending once
\`--max-consecutive-failures\` n (default 5; 0 never stops) requests in a row could not reach
the service (connection refused, DNS, TLS, a cut connection, after the retries); any answer from
the service resets the count. One line names the host and the last error, every record not
acknowledged is in the failed file, and the exit status is 1. A refused key (401/403) or a
Retry-After longer than \`--max-wait\` stops them the same way at the first such answer (exit 3,
or 1). \`--max-rate\` n/s (20, 20/s, 0.5/s) starts at most n requests a second, so \`--shard\`
workers can share one API quota.

Ctrl-C (130) and SIGTERM (143) send no new request, wait for the answers in flight, and print
what was done and the command that continues. With \`--checkpoint\` file (every one of them) it
is the same command line, which sends only what was not acknowledged (\`classify --batch\`
prints only the lines not answered: append its output with >>). Without one: for \`events send\`
and \`data add\` the same command line, which sends everything again (the run says to add
\`--checkpoint\`); for \`classify --batch\`, \`agent-decision send\` and \`deletion-request
send\` the same command with \`--from-line\` at the first line not done; for \`stream parts\`
the parts not sent are in the failed file and the command that sends it is printed.`,
  },
];
