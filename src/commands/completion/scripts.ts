import { longFlag, type FlagDecl, type Flags } from '../../core/cli/flags.js';
import { GLOBAL_FLAGS } from '../../core/cli/global-flags.js';
import { OUTPUT_FORMATS } from '../../core/terminal/output.js';
import { isGroup, walkTree, type ArgDecl, type TreeNode } from '../declaration.js';
import type { Shell } from './shells.js';

// The shell completions, generated from the command tree: every group, verb and flag, the values a
// flag or argument takes (fixed words, files, directories, profile names). `npm run gen` writes
// them into completions/ (committed: a test fails when they are stale); `csafe completion SHELL`
// prints them. One walk of the tree, three renderings.


/**
 * What a flag's value or an argument completes to: fixed words, a file, a directory, a profile
 * name, a command and its arguments (`emulator exec -- CMD …`), or anything (nothing offered).
 */
type Values = { words: readonly string[] } | 'file' | 'dir' | 'profile' | 'command' | 'any';

/** Fixed words go into the scripts as they are: nothing a shell would read as syntax. */
const PLAIN_WORD = /^[A-Za-z0-9._+,-]+$/;
const checkedWords = (words: readonly string[]) => {
  const bad = words.filter((word) => !PLAIN_WORD.test(word));
  if (bad.length > 0) throw new Error(`completion words with characters a shell would read: ${bad.join(' ')}`);
  return { words };
};

interface FlagInfo {
  /** `--output`, and `-o` when it has a short form. */
  long: string;
  short?: string;
  help: string;
  /** Undefined for a switch. */
  values?: Values;
}

/** One command line of the tree: a group (its verbs) or a command (its flags and arguments). */
interface Place {
  path: string;
  description: string;
  /** A group's verbs, with their descriptions. */
  verbs?: ReadonlyArray<{ name: string; description: string }>;
  /** A command's own flags (the global ones are everywhere). */
  flags: readonly FlagInfo[];
  /** What a command's arguments are; undefined when it takes none. */
  args?: Values;
}

/** The flags every command takes: the global ones, help and version. */
const GLOBALS: readonly FlagInfo[] = [
  ...flagInfos(GLOBAL_FLAGS),
  { long: '--help', short: '-h', help: 'show help' },
  { long: '--version', short: '-V', help: 'print the version' },
];

function flagInfos(flags: Flags): FlagInfo[] {
  return Object.entries(flags).flatMap(([key, flag]) => {
    if (flag.type === 'absent') return [];
    const values = valuesOf(key, flag);
    return [{ long: longFlag(key, flag), ...('short' in flag && flag.short !== undefined && { short: flag.short }), help: flag.help, ...(values !== undefined && { values }) }];
  });
}

function valuesOf(key: string, flag: FlagDecl): Values | undefined {
  switch (flag.type) {
    case 'switch':
      return undefined;
    case 'choice':
      return checkedWords(flag.choices);
    case 'file':
      return 'file';
    case 'text':
      if (key === 'profile') return 'profile';
      if (key === 'output') return checkedWords(OUTPUT_FORMATS);
      if (flag.value === 'dir') return 'dir';
      return /^file\b/.test(flag.value) ? 'file' : 'any';
    default:
      return 'any';
  }
}

/**
 * What a command's arguments complete to: files when one of them is a file (`data add <namespace>
 * [file]`: the shells complete by kind, not by position), else the first one's choices.
 */
function argValues(args: readonly ArgDecl[] | undefined): Values | undefined {
  const [first] = args ?? [];
  if (first === undefined) return undefined;
  if (/^<command/.test(first.name)) return 'command';
  if (args!.some((arg) => /file|body/.test(arg.name))) return 'file';
  return first.choices === undefined ? 'any' : checkedWords(first.choices);
}

/** Every place of the tree, the root first (its groups and top-level commands as its "verbs"). */
function placesOf(tree: readonly TreeNode[]): Place[] {
  const root: Place = { path: '', description: 'csafe', verbs: tree.map(({ name, description }) => ({ name, description })), flags: [] };
  const places = [...walkTree(tree)].map(({ path, node }): Place => {
    const at = path.join(' ');
    if (isGroup(node)) return { path: at, description: node.description, verbs: node.commands.map(({ name, description }) => ({ name, description })), flags: [] };
    const own = flagInfos(node.flags ?? {}).filter((flag) => !GLOBALS.some((global) => global.long === flag.long));
    return { path: at, description: node.description, flags: own, ...(argValues(node.args) !== undefined && { args: argValues(node.args) }) };
  });
  return [root, ...places];
}

/** Every spelling of the flags that take a value: the word after one is its value, not a command. */
function valueFlagSpellings(places: readonly Place[]): string[] {
  const all = [...GLOBALS, ...places.flatMap((place) => place.flags)];
  const taking = new Set(all.filter((flag) => flag.values !== undefined).flatMap((flag) => [flag.long, ...(flag.short === undefined ? [] : [flag.short])]));
  // A name that is a switch in one command and takes a value in another would be misread in one of them.
  const both = all.filter((flag) => flag.values === undefined && taking.has(flag.long));
  if (both.length > 0) throw new Error(`flags that are a switch somewhere and take a value elsewhere: ${[...new Set(both.map((flag) => flag.long))].join(', ')}`);
  return [...taking].sort();
}

const spellings = (flag: FlagInfo) => [flag.long, ...(flag.short === undefined ? [] : [flag.short])];
const groupPaths = (places: readonly Place[]) => places.filter((place) => place.verbs !== undefined).map((place) => place.path);
const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
/** Help texts as one short line: what a completion menu shows beside a word. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').replace(/\s*\(.*$/, '').replace(/[.;:,]$/, '').slice(0, 80);

/**
 * The loop bash and zsh share (the same syntax in both) that finds the groups and verbs typed so
 * far into `at`: the words of array `words` from `first` up to the cursor's index `cursor`, less
 * flags and the values of those that take one, while they name a group. `last` is the index of the
 * last of them; `end` that of a `--`, after which nothing is a flag or a group. bash splits
 * `--flag=value` into three words (`=` is in COMP_WORDBREAKS): `=` and the value are skipped.
 */
const walkLoop = (places: readonly Place[], words: string, first: number, cursor: string) => `  for ((i = ${first}; i < ${cursor}; i++)); do
    case "\${${words}[i]}" in
      --) end=$i; break ;;
      ${valueFlagSpellings(places).join('|')}) [[ \${${words}[i+1]} == = ]] && ((i++)); ((i++)) ;;
      -*) ;;
      *) case "$at" in ${groupPaths(places).map(shellQuote).join('|')}) at="\${at:+$at }\${${words}[i]}"; last=$i ;; esac ;;
    esac
  done`;

const HEADER = (shell: Shell, install: string) => `# ${shell} completion for csafe, generated from its command tree by \`npm run gen\`; \`csafe completion ${shell}\` prints it.\n# Install: ${install}\n`;

/** bash: the path of groups and verbs typed so far, then the words for the flag value, verb, flag or argument under the cursor. */
function bashScript(tree: readonly TreeNode[]): string {
  const places = placesOf(tree);
  // A line a word (_csafe_lines): a file or profile name with a space or a * stays one word.
  const bashValues = (values: Values) => {
    if (values === 'file') return 'compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur")';
    if (values === 'dir') return 'compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -d -- "$cur")';
    if (values === 'profile') return 'compopt -o filenames 2>/dev/null; _csafe_lines < <(csafe __complete profiles 2>/dev/null | while IFS= read -r i; do [[ $i == "$cur"* ]] && printf \'%s\\n\' "$i"; done)';
    // `emulator exec [options] -- CMD ARGS…`: the `--` first, then a command, then files.
    if (values === 'command') return '[[ -z $end ]] && COMPREPLY=($(compgen -W -- -- "$cur")) || { ((COMP_CWORD == end + 1)) && _csafe_lines < <(compgen -c -- "$cur") || { compopt -o filenames 2>/dev/null; _csafe_lines < <(compgen -f -- "$cur"); }; }';
    if (values === 'any') return 'COMPREPLY=()';
    return `COMPREPLY=($(compgen -W ${shellQuote(values.words.join(' '))} -- "$cur"))`;
  };
  const offersValues = (flag: FlagInfo) => flag.values !== undefined && flag.values !== 'any';
  const flagValueCases = [
    ...places.flatMap((place) => place.flags.filter(offersValues).map((flag) => `    ${spellings(flag).map((spelling) => `${shellQuote(`${place.path}:`)}${spelling}`).join('|')}) ${bashValues(flag.values!)}; return ;;`)),
    ...GLOBALS.filter(offersValues).map((flag) => `    ${spellings(flag).map((spelling) => `*:${spelling}`).join('|')}) ${bashValues(flag.values!)}; return ;;`),
    // The value of any other flag: nothing to offer (an id, a duration, some text).
    `    ${valueFlagSpellings(places).map((spelling) => `*:${spelling}`).join('|')}) COMPREPLY=(); return ;;`,
  ];
  const globalWords = GLOBALS.flatMap(spellings).join(' ');
  const placeCases = places.map((place) => {
    if (place.verbs !== undefined) {
      const words = place.verbs.map((verb) => verb.name).join(' ');
      return `    ${shellQuote(place.path)}) words=${shellQuote(place.path === '' ? `${words} ${globalWords}` : words)} ;;`;
    }
    const flags = place.flags.flatMap(spellings).join(' ');
    const args = place.args === undefined ? 'COMPREPLY=()' : bashValues(place.args);
    return `    ${shellQuote(place.path)}) [[ -z $end && $cur == -* ]] && words=${shellQuote(`${flags} ${globalWords}`.trim())} || { ${args}; return; } ;;`;
  });
  return `${HEADER('bash', 'source <(csafe completion bash) in ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/csafe')}
_csafe_lines() {
  COMPREPLY=()
  local line
  while IFS= read -r line; do COMPREPLY+=("$line"); done
}

_csafe() {
  # The word as readline will replace it ($2): after \`--output=\` it is empty, where COMP_WORDS has \`=\`.
  local cur=\${2-\${COMP_WORDS[COMP_CWORD]}} prev=\${COMP_WORDS[COMP_CWORD-1]} at="" words="" i last=0 end=""
  [[ $cur == = ]] && cur=""
  if [[ \${COMP_WORDS[COMP_CWORD]} == = ]]; then prev=\${COMP_WORDS[COMP_CWORD-1]}; elif [[ $prev == = ]]; then prev=\${COMP_WORDS[COMP_CWORD-2]}; fi
${walkLoop(places, 'COMP_WORDS', 1, 'COMP_CWORD')}
  [[ -z $end ]] && case "$at:$prev" in
${flagValueCases.join('\n')}
  esac
  case "$at" in
${placeCases.join('\n')}
    *) return ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _csafe csafe
`;
}

/** zsh: the same walk; verbs offered with their descriptions (_describe), a command's flags and arguments through _arguments. */
function zshScript(tree: readonly TreeNode[]): string {
  const places = placesOf(tree);
  const zshValues = (values: Values) => {
    if (values === 'file') return '_files';
    if (values === 'dir') return '_files -/';
    if (values === 'profile') return '{compadd -- ${(f)"$(csafe __complete profiles 2>/dev/null)"}}';
    if (values === 'command') return '_normal';
    if (values === 'any') return ' ';
    return `(${values.words.join(' ')})`;
  };
  const escape = (text: string) => oneLine(text).replaceAll("'", "'\\''").replace(/[[\]:]/g, '\\$&');
  const flagSpecs = (flags: readonly FlagInfo[]) =>
    flags.flatMap((flag) =>
      spellings(flag).map((spelling) => {
        const value = flag.values === undefined ? '' : `:${flag.long.slice(2)}:${zshValues(flag.values)}`;
        // `--flag=`: the value in the next word or after `=` in the same one.
        const form = flag.values !== undefined && spelling.startsWith('--') ? `${spelling}=` : spelling;
        return `'${form}[${escape(flag.help)}]${value.replaceAll("'", "'\\''")}'`;
      }),
    );
  const placeCases = places.map((place) => {
    if (place.verbs !== undefined) {
      const verbs = place.verbs.map((verb) => `'${verb.name}:${escape(verb.description)}'`).join(' ');
      return `    ${shellQuote(place.path)})\n      _arguments -C : $globals '1: :->verbs' && return\n      [[ $state == verbs ]] && { local -a verbs=(${verbs}); _describe -t commands 'csafe command' verbs; } ;;`;
    }
    const args =
      place.args === undefined ? '' : place.args === 'command' ? ` '1:separator:(--)'` : ` '*:${place.args === 'file' ? 'file' : 'argument'}:${zshValues(place.args).replaceAll("'", "'\\''")}'`;
    return `    ${shellQuote(place.path)})\n      _arguments -S : $globals ${flagSpecs(place.flags).join(' ')}${args} ;;`;
  });
  return `#compdef csafe
${HEADER('zsh', 'csafe completion zsh > "${fpath[1]}/_csafe" (any directory of $fpath), then compinit')}
_csafe() {
  local -a globals=(${flagSpecs(GLOBALS).join(' ')})
  # Not \`path\`: zsh ties it to PATH.
  local curcontext="$curcontext" state line at="" i last=0 end=0
  typeset -A opt_args
${walkLoop(places, 'words', 2, 'CURRENT')}
  # \`emulator exec … -- CMD ARGS…\`: CMD and its arguments completed as a command line of their own.
  if (( end )) && [[ $at == (${places.filter((place) => place.args === 'command').map((place) => place.path).join('|') || '-'}) ]]; then
    words=("\${(@)words[end+1,-1]}")
    (( CURRENT -= end ))
    _normal
    return
  fi
  # _arguments reads words[2] on as the command's own: the groups and verbs before are not its arguments.
  if (( last )); then
    words=(csafe "\${(@)words[last+1,-1]}")
    (( CURRENT -= last - 1 ))
  fi
  case "$at" in
${placeCases.join('\n')}
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _csafe "$@"; else compdef _csafe csafe; fi
`;
}

/** fish: one `complete` line per verb and flag, each under the condition that the path typed so far is its place. */
function fishScript(tree: readonly TreeNode[]): string {
  const places = placesOf(tree);
  const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  const at = (path: string) => `-n "__csafe_at '${path}'"`;
  const fishValues = (values: Values) => {
    if (values === 'file') return '-r -F';
    if (values === 'dir') return "-x -a '(__fish_complete_directories)'";
    if (values === 'profile') return "-x -a '(csafe __complete profiles 2>/dev/null)'";
    if (values === 'command') return "-x -a '(__csafe_command)'";
    if (values === 'any') return '-x';
    return `-x -a ${quote(values.words.join(' '))}`;
  };
  const flagLine = (flag: FlagInfo, condition: string) => {
    const short = flag.short === undefined ? '' : ` -s ${flag.short.slice(1)}`;
    const values = flag.values === undefined ? '' : ` ${fishValues(flag.values)}`;
    return `complete -c csafe${condition}${short} -l ${flag.long.slice(2)}${values} -d ${quote(oneLine(flag.help))}`;
  };
  const lines = places.flatMap((place) => {
    if (place.verbs !== undefined) return place.verbs.map((verb) => `complete -c csafe ${at(place.path)} -f -a ${verb.name} -d ${quote(oneLine(verb.description))}`);
    const args =
      place.args === undefined
        ? []
        : place.args === 'file'
          ? [`complete -c csafe ${at(place.path)} -F`]
          : place.args === 'command'
            ? [`complete -c csafe ${at(place.path)} -n '__csafe_after_dashdash' ${fishValues(place.args)}`]
            : [`complete -c csafe ${at(place.path)} ${fishValues(place.args)}`];
    return [...args, ...place.flags.map((flag) => flagLine(flag, ` ${at(place.path)}`))];
  });
  return `${HEADER('fish', 'csafe completion fish > ~/.config/fish/completions/csafe.fish')}
# The groups and verbs typed so far: the words that are neither flags nor a flag's value, while they name a group.
function __csafe_path
    set -l at ''
    set -l words (commandline -opc)[2..-1]
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case --
                break
            case ${valueFlagSpellings(places).join(' ')}
                set skip 1
            case '-*'
            case '*'
                switch $at
                    case ${groupPaths(places).map(quote).join(' ')}
                        set at (string trim -- "$at $word")
                end
        end
    end
    echo $at
end

function __csafe_at
    test (__csafe_path) = "$argv"
end

# \`emulator exec … -- CMD ARGS…\`: what fish completes for CMD ARGS… on a line of their own.
function __csafe_after_dashdash
    contains -- -- (commandline -opc)
end

function __csafe_command
    set -l words (commandline -opc)
    set -l rest $words[(math (contains -i -- -- $words) + 1)..-1]
    complete -C (string join ' ' -- (string escape -- $rest) (commandline -ct))
end

complete -c csafe -f
${GLOBALS.map((flag) => flagLine(flag, '')).join('\n')}
${lines.join('\n')}
`;
}

/** The script of a shell. */
export function completionScript(shell: Shell, tree: readonly TreeNode[]): string {
  return { bash: bashScript, zsh: zshScript, fish: fishScript }[shell](tree);
}
