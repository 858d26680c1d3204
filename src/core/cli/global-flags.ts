// The flags every command takes, before or after it: commander's program options (main.ts), the
// flags that take a value (command-line.ts, to find where a command starts and to rewrite a
// command line), and the type of what they hold (config/settings.ts) all come from this one list.

import { flagSpec, flagsWithValue, type Flags, type OptionsOf } from './flags.js';

export const GLOBAL_FLAGS = {
  profile: { type: 'text', value: 'name', help: 'configuration profile (default: "default", or CSAFE_PROFILE); an unknown one is an error but for auth login and config set, which create it' },
  apiKey: { type: 'text', value: 'key', help: 'API key or short-lived token (prefer CSAFE_API_KEY or --api-key-file: flags show in `ps`)', secret: true },
  apiKeyFile: { type: 'file', value: 'file', help: 'read the API key or token from the first line of this file (mode 0600), out of `ps` and shell history' },
  baseUrl: { type: 'text', value: 'url', help: 'service base URL (or CSAFE_BASE_URL)' },
  requestTimeout: { type: 'text', value: 'duration', help: 'timeout of each request, e.g. 30s, 2m (default 60s, or CSAFE_REQUEST_TIMEOUT)' },
  maxRetries: { type: 'text', value: 'n', help: 'retries of a failed request where retrying is safe (default 2)' },
  maxWait: { type: 'text', value: 'duration', help: 'longest Retry-After wait to sleep through (default 60s)' },
  // Checked once parsed (core/terminal/output), so a bad value is one line naming the flag.
  output: { type: 'text', short: '-o', value: 'format', output: true, help: 'output format: table, json, ndjson or tsv (default: a table on a terminal, or the profile\'s output; JSON or NDJSON in a pipe)' },
  json: { type: 'switch', output: true, help: 'same as --output json: one JSON document (a stream of results as one array)' },
  wide: { type: 'switch', help: 'tables show long cells whole instead of cutting them to the terminal width' },
  verbose: { type: 'switch', short: '-v', help: 'trace every request on stderr (credentials redacted)' },
  quiet: { type: 'switch', short: '-q', help: 'no progress, spinners or notes on stderr' },
  progress: { type: 'switch', help: 'when stderr is not a terminal (a CI log): a plain progress line every 5s instead of nothing' },
  color: { type: 'switch', negate: true, help: 'no colour (also NO_COLOR)' },
  insecure: { type: 'switch', help: 'allow plain http:// to a non-loopback host' },
  emulator: { type: 'switch', help: 'run against an in-process emulator on an ephemeral port (no account needed)' },
} as const satisfies Flags;

/** The global flags as commander hands them to a command (optsWithGlobals): each given or not, values as typed. */
export type GlobalFlags = Partial<OptionsOf<typeof GLOBAL_FLAGS>>;

/** The global flags that take a value (the next argument, unless given as `--flag=value`). */
export const GLOBAL_FLAGS_WITH_VALUE: ReadonlySet<string> = flagsWithValue(GLOBAL_FLAGS);

/** The global flags that take no value, by every name they have (`-v`, `--verbose`). */
export const GLOBAL_SWITCHES: ReadonlySet<string> = new Set(
  Object.entries(GLOBAL_FLAGS).flatMap(([key, flag]) => flagSpec(key, flag).split(/[ ,]+/).filter((name) => name.startsWith('-') && !GLOBAL_FLAGS_WITH_VALUE.has(name))),
);
