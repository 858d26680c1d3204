import { Help, type Command, type HelpConfiguration, type Option } from 'commander';

/** Every environment variable csafe reads, with what it sets; the order they are listed in. */
export const VARIABLES = {
  CSAFE_API_KEY: 'API key or access token, over the profile\'s (--api-key over it)',
  CSAFE_BASE_URL: 'service base URL, over the profile\'s (--base-url over it)',
  CSAFE_PROFILE: 'profile to use (default "default"; --profile over it)',
  CSAFE_CONFIG_DIR: 'directory of config.json (default ~/.config/csafe)',
  CSAFE_USER_ID: 'user id when --user-id is not given, over the profile\'s',
  CSAFE_WEBHOOK_SECRET: 'the whsec_… secret webhook signatures are checked with, when --secret is not given',
  CSAFE_REQUEST_TIMEOUT: 'timeout of each request, e.g. 30s (--request-timeout over it)',
  CSAFE_MAX_RETRIES: 'retries of a failed request (--max-retries over it)',
  CSAFE_EMULATOR_DATA_DIR: 'where --emulator keeps its data between runs',
  NO_COLOR: 'set and not empty: no colour (as --no-color)',
  FORCE_COLOR: 'colour even when not on a terminal; 0 or false: none',
  COLUMNS: 'table width (over the terminal\'s); progress width when stderr has none',
  TERM: 'dumb: no spinner or cursor movement, a plain progress line instead',
  CI: 'set (not 0 or false): a plain progress line instead of a spinner on a terminal',
  NODE_DISABLE_COMPILE_CACHE: '1: compile csafe anew at every run, keeping no code cache (see FILES in man csafe)',
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

/**
 * The `Examples:` and `Environment:` sections that end every command's --help, in one format,
 * fitted to `width`: examples are command lines to copy, never wrapped; what a variable sets wraps
 * under itself.
 */
export function renderHelpSections({ examples, environment }: HelpSections, width = Infinity): string {
  const listed = ALL_VARIABLES.filter((name) => environment.includes(name) || EVERY_COMMAND.includes(name));
  const nameWidth = Math.max(...listed.map((name) => name.length));
  const beside = width - nameWidth - 4 >= DESCRIPTION_BESIDE;
  const variables = listed.map((name) =>
    beside
      ? wrapWords(`  ${name.padEnd(nameWidth)}  ${VARIABLES[name]}`, width, ' '.repeat(nameWidth + 4))
      : `  ${name}\n${wrapWords(`      ${VARIABLES[name]}`, width, '      ')}`,
  );
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

/**
 * Text written for --help, fitted to `width`: its paragraphs (between blank lines) re-wrapped as
 * one flow of words, so a narrow terminal gets no ragged lines. A line that starts with white
 * space (a row of a table) keeps its columns, its last one wrapped under itself; a line after one
 * ending in `:` starts anew.
 */
export function fitHelpText(text: string, width: number): string {
  return text
    .split('\n\n')
    .map((paragraph) => paragraphItems(paragraph).map((item) => (item.startsWith(' ') ? fitTableRow(item, width) : wrapWords(item, width, ''))).join('\n'))
    .join('\n\n');
}

/** `  name     what it is`, its last column wrapped under itself when the row is wider than `width`. */
function fitTableRow(row: string, width: number): string {
  if (row.length <= width) return row;
  const lastColumn = row.lastIndexOf('  ') + 2;
  if (lastColumn < 2 || lastColumn > width - DESCRIPTION_BESIDE) return row;
  const rest = wrapWords(row.slice(lastColumn), width - lastColumn, '');
  return row.slice(0, lastColumn) + rest.replaceAll('\n', `\n${' '.repeat(lastColumn)}`);
}

/** The lines of a paragraph joined into the pieces that flow on their own. */
function paragraphItems(paragraph: string): string[] {
  const items: string[] = [];
  let flowing = false;
  for (const line of paragraph.split('\n')) {
    if (flowing && line !== '' && !line.startsWith(' ') && !items.at(-1)!.endsWith(':')) items[items.length - 1] += ` ${line}`;
    else items.push(line);
    flowing = line !== '' && !line.startsWith(' ');
  }
  return items;
}

/**
 * Text laid on lines of at most `width` characters, broken at spaces, every line after the first
 * opening with `indent`; the spaces within a line are kept (an aligned column stays aligned), and
 * a word longer than a line has one of its own.
 */
export function wrapWords(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const [, spaces, word] of text.matchAll(/( *)([^ ]+)/g)) {
    if (line.trim() !== '' && [...line].length + spaces!.length + [...word!].length > width) {
      lines.push(line);
      line = indent + word;
    } else {
      line += spaces! + word;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/** The width help is fitted to when the terminal's is not known (a pipe, a file). */
export const HELP_WIDTH = 80;

/** Below this many columns for an option's description beside its flag, the description goes under it. */
const DESCRIPTION_BESIDE = 20;

/**
 * How commander lays help out, as gh does: every group's and verb's help lists the global flags it
 * takes (not --version, which is about csafe, nor one the command declares again with a meaning of
 * its own, as emulator start does --api-key), a group lists its verbs by name, and all of it fits
 * the terminal: on a narrow one an option's description goes under its flag.
 */
export const HELP_LAYOUT: HelpConfiguration = {
  showGlobalOptions: true,
  subcommandTerm: (command) => command.name(),
  minWidthToWrap: DESCRIPTION_BESIDE,
  visibleGlobalOptions(this: Help, command: Command): Option[] {
    const own = new Set(command.options.map((option) => option.long));
    return Help.prototype.visibleGlobalOptions.call(this, command).filter((option) => option.long !== '--version' && !own.has(option.long));
  },
  formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
    const width = this.helpWidth ?? HELP_WIDTH;
    if (description === '' || width - termWidth - 4 >= DESCRIPTION_BESIDE) return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
    const under = ' '.repeat(6);
    return `  ${term}\n${under}${helper.boxWrap(description, width - under.length).replaceAll('\n', `\n${under}`)}`;
  },
};
