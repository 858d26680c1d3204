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
  ['5', 'partial: some records this run sent succeeded, the rest are in the failed, unconfirmed or skip file (5 wins over 4)'],
  ['75', 'another run holds the --checkpoint (its lock): nothing was done; the same command later will do'],
  ['124', 'a wait timed out'],
  ['126, 127', 'emulator exec: its command cannot be run (126) or is not found (127); else it exits with the command\'s own code'],
  ['130, 143', 'interrupted by Ctrl-C or a closed terminal (130) or SIGTERM (143)'],
];

export const ROOT_EXAMPLES: readonly string[] = [
  'csafe --emulator classify --text "hello" --user-id u1',
  `csafe classify examples/post.txt --user-id u1 --json | jq -r '.labels[].decision'`,
  'csafe data add listings examples/listings.jsonl --wait',
];
