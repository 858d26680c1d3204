import { flagSpec, type FlagDecl, type Flags } from '../../core/cli/flags.js';
import { GLOBAL_FLAGS } from '../../core/cli/global-flags.js';
import { ALL_VARIABLES, VARIABLES, type Variable } from '../../core/cli/help.js';
import { isGroup, type CommandDecl, type TreeNode } from '../declaration.js';
import { EXIT_CODES, ROOT_DESCRIPTION, ROOT_EXAMPLES, ROOT_TOPICS } from '../root.js';

// The man pages, generated from the command tree with the text of --help: csafe(1), and a page
// per group or top-level command (csafe-data(1), csafe-classify(1) …). `npm run gen` writes them
// into man/ (committed: a test fails when they are stale); package.json's "man" lists them.

/** The date every page carries: fixed, so a page is made the same until its text changes. Moved on with each release. */
const MANUAL_DATE = '2026-11-27';

/** Longest line a page is written with: mandoc -T lint asks for at most 80 bytes. */
const WIDTH = 78;

/**
 * Plain text as roff: backslashes and hyphens escaped, `code` in bold, a character beyond ASCII
 * (…, ≥) as its \\[uXXXX] escape, as mandoc reads it (and counts it, against the line's 80 bytes).
 */
function inline(text: string): string {
  return text
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .replace(/`([^`]+)`/g, '\\fB$1\\fR')
    .replace(/[^\x00-\x7e]/gu, (char) => `\\[u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** Words laid out in lines of at most WIDTH bytes; a line that would start with `.` or `'` is guarded. */
function fill(words: readonly string[]): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && Buffer.byteLength(`${line} ${word}`) > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((each) => (/^[.']/.test(each) ? `\\&${each}` : each));
}

/**
 * Help text as roff: paragraphs (split at blank lines) filled; lines indented by two spaces or
 * more, and the lines of a paragraph whose lines end with `:`, kept as they are (.nf).
 */
function prose(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.trim().split(/\n\s*\n/)) {
    if (out.length > 0) out.push('.PP');
    const lines = paragraph.split('\n');
    if (lines.some((line) => /^\s{2,}\S/.test(line))) {
      const { lead, kept } = splitAtFirstIndented(lines);
      if (lead !== undefined) out.push(...fill(inline(lead).split(/\s+/)));
      out.push('.nf', ...kept.flatMap(commandLine), '.fi');
    } else out.push(...fill(inline(paragraph).split(/\s+/)));
  }
  return out;
}

/** A paragraph's running text before its first indented line (joined), and its lines from there, kept as they are. */
function splitAtFirstIndented(lines: readonly string[]): { lead?: string; kept: string[] } {
  const first = lines.findIndex((line) => /^\s{2,}\S/.test(line));
  return { ...(first > 0 && { lead: lines.slice(0, first).join(' ') }), kept: lines.slice(first) };
}

/** A line of a no-fill block (a command line) as roff: as it is, or when too long continued on the next line with `\`. */
function commandLine(line: string): string[] {
  const guard = (text: string) => (/^[.']/.test(text) ? `\\&${text}` : text);
  if (Buffer.byteLength(inline(line)) <= WIDTH) return [guard(inline(line))];
  const words = inline(line).trim().split(' ');
  const out: string[] = [];
  let current = '';
  for (const word of words) {
    if (current !== '' && Buffer.byteLength(`${current} ${word} \\`) > WIDTH) {
      out.push(`${current} \\`);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  out.push(current);
  return out.map(guard);
}

/** A flag as --help lists it (`-o, --output <format>`: the names bold, the value's name italic), with its default. */
function option(key: string, flag: Exclude<FlagDecl, { type: 'absent' }>): string[] {
  const [names, value] = flagSpec(key, flag).split(' <');
  const given = 'default' in flag && flag.default !== undefined ? ` (default: ${flag.default})` : '';
  return ['.TP', `\\fB${inline(names!)}\\fR${value === undefined ? '' : ` \\fI${inline(value.slice(0, -1))}\\fR`}`, ...fill(inline(`${flag.help}${given}`).split(/\s+/))];
}

const options = (flags: Flags) => Object.entries(flags).flatMap(([key, flag]) => (flag.type === 'absent' ? [] : option(key, flag)));

const usage = (path: string, command: CommandDecl) => {
  const args = (command.args ?? []).map((arg) => arg.name.replace(/^([<[])(.*?)(\.\.\.)?([>\]])$/, (_, open: string, name: string, more = '', close: string) => `${open}\\fI${name}\\fR${more}${close}`));
  return ['.TP', `\\fBcsafe ${inline(path)}\\fR [\\fIoptions\\fR]${args.length > 0 ? ` ${args.join(' ')}` : ''}`];
};

const header = (name: string, description: string) => [
  `.TH ${name.toUpperCase().replaceAll('-', '\\-')} 1 ${MANUAL_DATE} "csafe" "User Commands"`,
  '.SH NAME',
  ...fill([name.replaceAll('-', '\\-'), '\\-', ...inline(description).split(/\s+/)]),
];

const exitStatus = () => ['.SH EXIT STATUS', ...EXIT_CODES.flatMap(([code, meaning]) => ['.TP', `.B ${code}`, ...fill(inline(meaning).split(/\s+/))])];

const environment = (variables: readonly Variable[]) => ['.SH ENVIRONMENT', ...variables.flatMap((name) => ['.TP', `.B ${name}`, ...fill(inline(VARIABLES[name]).split(/\s+/))])];

const examples = (lines: readonly string[]) => ['.SH EXAMPLES', '.nf', ...lines.flatMap(commandLine), '.fi'];

const FILES = [
  '.SH FILES',
  ...fill(inline('config.json (mode 0600) in CSAFE_CONFIG_DIR or ~/.config/csafe: the profiles, made by the first `auth login` or `config set`. Beside it, service.json remembers, per profile and base URL, an endpoint the service lacks (a cache, safe to delete). `--emulator` keeps its data in CSAFE_EMULATOR_DATA_DIR, else $XDG_STATE_HOME/csafe/emulator, else ~/.local/state/csafe/emulator. The code V8 compiles for csafe is kept in $XDG_CACHE_HOME/csafe/code-cache, else ~/.cache/csafe/code-cache, a file for each build of csafe, release of Node and command run, removed once not written for 30 days (a cache, safe to delete; NODE_DISABLE_COMPILE_CACHE=1 keeps none).').split(/\s+/)),
];

/** The page of a top-level node: a group and its verbs, or a command of its own (classify). */
function nodePage(node: TreeNode, tree: readonly TreeNode[]): string[] {
  const verbs = isGroup(node) ? node.commands.map((verb) => ({ path: `${node.name} ${verb.name}`, command: verb })) : [{ path: node.name, command: node }];
  const used = new Set(verbs.flatMap(({ command }) => command.environment));
  return [
    ...header(`csafe-${node.name}`, node.description),
    '.SH SYNOPSIS',
    ...verbs.flatMap(({ path, command }) => [...usage(path, command), ...fill(inline(command.description).split(/\s+/))]),
    '.SH DESCRIPTION',
    ...(isGroup(node) && node.details !== undefined ? prose(node.details) : []),
    ...verbs.flatMap(({ path, command }) => [`.SS csafe ${inline(path)}`, ...fill(inline(command.description).split(/\s+/)), ...(command.details === undefined ? [] : ['.PP', ...prose(command.details)])]),
    '.SH OPTIONS',
    ...verbs.flatMap(({ path, command }) => (Object.keys(command.flags ?? {}).length === 0 ? [] : [`.SS csafe ${inline(path)}`, ...options(command.flags ?? {})])),
    '.SS Global options (every command)',
    ...options(GLOBAL_FLAGS),
    ...exitStatus(),
    ...environment(ALL_VARIABLES.filter((name) => used.has(name))),
    ...FILES,
    ...examples(verbs.flatMap(({ command }) => command.examples)),
    '.SH SEE ALSO',
    seeAlso(tree.filter((other) => other !== node).map((other) => `csafe-${other.name}`), ['csafe']),
  ];
}

const seeAlso = (pages: readonly string[], first: readonly string[]) =>
  [...first, ...pages].map((page) => `.BR ${page.replaceAll('-', '\\-')} (1)`).join(',\n');

/** csafe(1): what csafe is, its commands (each a page of its own), the global options, and what every command shares. */
function rootPage(tree: readonly TreeNode[]): string[] {
  return [
    ...header('csafe', ROOT_DESCRIPTION),
    '.SH SYNOPSIS',
    '.B csafe',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    ...fill(inline('csafe checks user-generated content and user activity against the Content Safety Service, and runs a local emulator of it. Each command has a page of its own: see COMMANDS.').split(/\s+/)),
    '.SH COMMANDS',
    ...tree.flatMap((node) => ['.TP', `.BR csafe\\-${node.name.replaceAll('-', '\\-')} (1)`, ...fill(inline(`${node.description}${isGroup(node) ? `: ${node.commands.map((verb) => verb.name).join(', ')}` : ''}`).split(/\s+/))]),
    ...ROOT_TOPICS.flatMap(({ title, text }) => [`.SH ${title}`, ...prose(text)]),
    '.SH GLOBAL OPTIONS',
    ...options(GLOBAL_FLAGS),
    ...exitStatus(),
    ...environment(ALL_VARIABLES),
    ...FILES,
    ...examples(ROOT_EXAMPLES),
    '.SH SEE ALSO',
    seeAlso(tree.map((node) => `csafe-${node.name}`), []),
  ];
}

/** Every page, by file name under man/. */
export function manualPages(tree: readonly TreeNode[]): Map<string, string> {
  const page = (lines: readonly string[]) => `${lines.join('\n')}\n`;
  return new Map([['csafe.1', page(rootPage(tree))], ...tree.map((node) => [`csafe-${node.name}.1`, page(nodePage(node, tree))] as const)]);
}
