/** Every environment variable csafe reads, with what it sets; the order they are listed in. */
const VARIABLES = {
  CSAFE_API_KEY: 'API key or access token, over the profile\'s (--api-key over it)',
  CSAFE_BASE_URL: 'service base URL, over the profile\'s (--base-url over it)',
  CSAFE_PROFILE: 'profile to use (default "default"; --profile over it)',
  CSAFE_CONFIG_DIR: 'directory of config.json (default ~/.config/csafe)',
  CSAFE_USER_ID: 'user id when --user-id is not given, over the profile\'s',
  CSAFE_REQUEST_TIMEOUT: 'timeout of each request, e.g. 30s (--request-timeout over it)',
  CSAFE_MAX_RETRIES: 'retries of a failed request (--max-retries over it)',
  CSAFE_EMULATOR_DATA_DIR: 'where --emulator keeps its data between runs',
  NO_COLOR: 'set and not empty: no colour (as --no-color)',
  FORCE_COLOR: 'colour even when not on a terminal; 0 or false: none',
  COLUMNS: 'table width (over the terminal\'s); progress width when stderr has none',
  TERM: 'dumb: no spinner or cursor movement, a plain progress line instead',
  CI: 'set (not 0 or false): a plain progress line instead of a spinner on a terminal',
} as const;

export type Variable = keyof typeof VARIABLES;

export const ALL_VARIABLES = Object.keys(VARIABLES) as Variable[];

/** Read by every command that keeps or reads a profile. */
export const PROFILE_VARIABLES: readonly Variable[] = ['CSAFE_PROFILE', 'CSAFE_CONFIG_DIR'];

/** Read by every command that calls the service: where, with which key, how patiently. */
export const SERVICE_VARIABLES: readonly Variable[] = [
  'CSAFE_API_KEY',
  'CSAFE_BASE_URL',
  ...PROFILE_VARIABLES,
  'CSAFE_REQUEST_TIMEOUT',
  'CSAFE_MAX_RETRIES',
  'CSAFE_EMULATOR_DATA_DIR',
];

/** Read by every command: its errors are red on a terminal. */
const EVERY_COMMAND: readonly Variable[] = ['NO_COLOR'];

export interface HelpSections {
  /**
   * Two or three command lines, each run as written against an emulator by
   * test/e2e/examples.test.ts; a trailing `# exit N …` comment gives the exit code it expects.
   */
  examples: readonly string[];
  /** The variables the command reads (NO_COLOR, read by all, goes without saying). */
  environment: readonly Variable[];
}

/** The `Examples:` and `Environment:` sections that end every command's --help, in one format. */
export function renderHelpSections({ examples, environment }: HelpSections): string {
  const listed = ALL_VARIABLES.filter((name) => environment.includes(name) || EVERY_COMMAND.includes(name));
  const width = Math.max(...listed.map((name) => name.length));
  const variables = listed.map((name) => `  ${name.padEnd(width)}  ${VARIABLES[name]}`);
  return ['', 'Examples:', ...examples.map((example) => `  ${example}`), '', 'Environment:', ...variables].join('\n');
}

/**
 * A group's sections: examples taken in turn from its verbs (the first of each, then the second,
 * up to three) and every variable any verb reads.
 */
export function groupHelpSections(verbs: readonly HelpSections[]): HelpSections {
  const rounds = Math.max(0, ...verbs.map((verb) => verb.examples.length));
  const examples = Array.from({ length: rounds }, (_, i) => verbs.flatMap((verb) => verb.examples[i] ?? [])).flat().slice(0, 3);
  return { examples, environment: verbs.flatMap((verb) => verb.environment) };
}
