import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { longFlag } from '../../src/core/cli/flags.js';
import { completionScript } from '../../src/commands/completion/scripts.js';
import { SCRIPT_FILES, SHELLS } from '../../src/commands/completion/shells.js';
import { isGroup, walkTree } from '../../src/commands/declaration.js';
import { TREE } from '../../src/commands/tree.js';
import { BIN, runCsafe, tempDir } from '../helpers/cli.js';

// The shell completions, generated from the command tree: committed as generated, printed by
// `csafe completion`, and run in real bash, fish and zsh (.ci/run installs the latter two).

const repoPath = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const run = promisify(execFile);
const sorted = (words: Iterable<string>) => [...new Set(words)].sort();
const hasShell = (shell: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`]);
    return true;
  } catch {
    return false;
  }
};

/** A directory with `csafe` (this build) on PATH and a config file of two profiles: what the completions call for profile names. */
function environment() {
  const dir = tempDir();
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'csafe'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'config', 'config.json'), JSON.stringify({ profiles: { default: {}, work: { base_url: 'https://example.com' } } }));
  mkdirSync(join(dir, 'cwd', 'a-dir'), { recursive: true });
  writeFileSync(join(dir, 'cwd', 'a-file.jsonl'), '');
  return { cwd: join(dir, 'cwd'), env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}`, CSAFE_CONFIG_DIR: join(dir, 'config') } };
}

/**
 * What bash completes for the command line `words` as readline splits it (`--output=` is three
 * words, `=` one of them), the last being the word under the cursor; `cur` is what bash passes as
 * $2, the text readline will replace (empty right after a `=`).
 */
async function bash(words: string[], where = environment(), cur = words.at(-1)!): Promise<string[]> {
  const script = 'source "$1"; cur=$2; shift 2; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _csafe csafe "$cur" "${COMP_WORDS[COMP_CWORD-1]}"; printf "%s\\n" "${COMPREPLY[@]}"';
  const { stdout } = await run('bash', ['--norc', '--noprofile', '-c', script, 'bash', repoPath(SCRIPT_FILES.bash), cur, 'csafe', ...words], where);
  return sorted(stdout.split('\n').filter(Boolean));
}

/** What fish completes for the command line (`complete -C`), the words only. */
async function fish(line: string, where = environment()): Promise<string[]> {
  const { stdout } = await run('fish', ['--no-config', '-c', `source ${repoPath(SCRIPT_FILES.fish)}; complete -C ${JSON.stringify(line)}`], where);
  return sorted(stdout.split('\n').filter(Boolean).map((entry) => entry.split('\t')[0]!));
}

/**
 * What zsh offers when TAB is pressed after `line`, in a real interactive zsh (zpty) with _csafe
 * on its fpath under compinit: every candidate completion adds, as typed into the line. Nothing
 * of _csafe's is stubbed: _arguments and _describe run as they do for a user. compinit keeps its
 * dump in the environment's directory, as a user's ~/.zcompdump: without one, every shell reads
 * each of the system's completion functions again, about a second of CPU.
 */
const ZSH_CAPTURE = `
zmodload zsh/zpty zsh/datetime zsh/zselect
zpty z zsh -f -i
zpty -w z "PROMPT=; fpath=(\${(q)1} \\$fpath); autoload -U compinit; compinit -u -d \${(q)3}"
zpty -w z 'bindkey "^I" complete-word; zstyle ":completion:*" insert-tab false'
zpty -w z 'compadd () {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits; builtin compadd -A __hits "$@"
  (( $#__hits )) && print -rl -- "<h""it>"\${^__hits}
  builtin compadd "$@"
}'
zpty -w z 'null-line () { print -r -- "<nu""ll>" }; compprefuncs=( null-line ); comppostfuncs=( null-line exit )'
zpty -n -w z "$2"$'\\t'
local line; integer seen=0; float deadline=$(( EPOCHREALTIME + 15 ))
while (( EPOCHREALTIME < deadline )); do
  zpty -r -t z line || { zselect -t 5; continue; }
  if [[ $line == *'<null>'* ]]; then (( ++seen == 2 )) && break; continue; fi
  [[ $line == *'<hit>'* ]] && print -r -- "\${\${\${line##*<hit>}%%$'\\r'*}%$'\\n'}"
done
zpty -d z
(( seen == 2 ))`;

async function zsh(line: string, where = environment()): Promise<string[]> {
  const { stdout } = await run('zsh', ['-f', '-c', ZSH_CAPTURE, 'zsh', dirname(repoPath(SCRIPT_FILES.zsh)), line, join(where.cwd, '..', 'zcompdump')], where);
  return sorted(stdout.split('\n').filter(Boolean));
}

const commands = () => [...walkTree(TREE)].filter(({ node }) => !isGroup(node));

const ownFlags = (node: (typeof TREE)[number]) => (isGroup(node) ? [] : Object.entries(node.flags ?? {}).filter(([, flag]) => flag.type !== 'absent').map(([key, flag]) => longFlag(key, flag)));

describe('shell completions', () => {
  it('completions/ holds what `npm run gen` makes from the command tree today, and `csafe completion SHELL` prints it', async () => {
    for (const shell of SHELLS) {
      assert.equal(readFileSync(repoPath(SCRIPT_FILES[shell]), 'utf8'), completionScript(shell, TREE), `${SCRIPT_FILES[shell]} is stale: run npm run gen`);
      const printed = await runCsafe(['completion', shell]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(printed.stdout, readFileSync(repoPath(SCRIPT_FILES[shell]), 'utf8'));
    }
    const refused = await runCsafe(['completion', 'tcsh']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /<shell>: expected one of bash, zsh, fish, got "tcsh"/);
  });

  it('`csafe __complete profiles` lists the config file\'s profiles, a name a line, and nothing when there is none', async () => {
    const { env } = environment();
    assert.equal((await runCsafe(['__complete', 'profiles'], { env: { CSAFE_CONFIG_DIR: env.CSAFE_CONFIG_DIR } })).stdout, 'default\nwork\n');
    assert.equal((await runCsafe(['__complete', 'profiles'], { env: { CSAFE_CONFIG_DIR: tempDir() } })).stdout, '');
    for (const [config, offered] of [['{"profiles":"abc"}', ''], ['{"profiles":["a"]}', ''], ['not json', ''], ['{"profiles":{"my work":{},"two\\nlines":{}}}', 'my work\n']] as const) {
      const dir = tempDir();
      writeFileSync(join(dir, 'config.json'), config);
      assert.equal((await runCsafe(['__complete', 'profiles'], { env: { CSAFE_CONFIG_DIR: dir } })).stdout, offered, config);
    }
  });

  it('bash: values of flags and arguments: fixed words, files, directories only, profile names', async () => {
    const where = environment();
    assert.deepEqual(await bash(['--output', ''], where), ['json', 'ndjson', 'table', 'tsv']);
    assert.deepEqual(await bash(['classify', '--fail-on', ''], where), ['match', 'review']);
    assert.deepEqual(await bash(['classify', '--api-version', ''], where), ['2026-08-05', '2026-08-11']);
    assert.deepEqual(await bash(['webhooks', 'trigger', ''], where), ['batch.completed', 'decision.completed', 'workflow.failed', 'workflow.succeeded']);
    assert.deepEqual(await bash(['completion', ''], where), ['bash', 'fish', 'zsh']);
    assert.deepEqual(await bash(['data', 'add', 'listings', '--checkpoint', ''], where), ['a-dir', 'a-file.jsonl']);
    assert.deepEqual(await bash(['emulator', 'start', '--data-dir', ''], where), ['a-dir']);
    assert.deepEqual(await bash(['classify', ''], where), ['a-dir', 'a-file.jsonl'], 'classify takes files');
    assert.deepEqual(await bash(['--profile', ''], where), ['default', 'work']);
    assert.deepEqual(await bash(['classify', '--user-id', ''], where), [], 'nothing for a value csafe cannot know');
    assert.deepEqual(await bash(['--profile', 'work', '-o', 'json', 'events', ''], where), ['example', 'send'], 'flags and their values are not the group');
  });

  it('bash: a file name with a space is one word; --flag=value; after `emulator exec --`, commands then files', async () => {
    const where = environment();
    writeFileSync(join(where.cwd, 'my events.jsonl'), '');
    assert.deepEqual(await bash(['data', 'add', 'listings', 'my'], where), ['my events.jsonl']);
    assert.deepEqual(await bash(['--output', '='], where, ''), ['json', 'ndjson', 'table', 'tsv'], 'csafe --output=<TAB>');
    assert.deepEqual(await bash(['classify', '--fail-on', '=', 'r'], where), ['review'], 'csafe classify --fail-on=r<TAB>');
    assert.deepEqual(await bash(['--profile', '=', 'work', 'events', ''], where), ['example', 'send'], 'csafe --profile=work events <TAB>');
    assert.deepEqual(await bash(['emulator', 'exec', ''], where), ['--']);
    assert.ok((await bash(['emulator', 'exec', '--', 'sh'], where)).includes('sh'), 'a command after --');
    assert.deepEqual(await bash(['emulator', 'exec', '--', 'sh', '--output', 'a-'], where), ['a-dir', 'a-file.jsonl'], "then the command's arguments, not csafe's flags and values");
  });

  it('fish: every group and verb, each command\'s flags, and the values of flags and arguments', { skip: !hasShell('fish') && 'fish is not installed' }, async () => {
    const where = environment();
    assert.deepEqual(await fish('csafe ', where), sorted(TREE.map((node) => node.name)));
    for (const { path, node } of walkTree(TREE)) {
      if (isGroup(node)) assert.deepEqual(await fish(`csafe ${path.join(' ')} `, where), sorted(node.commands.map((verb) => verb.name)), `csafe ${path.join(' ')} <TAB>`);
    }
    await Promise.all(
      commands().map(async ({ path, node }) => {
        const offered = await fish(`csafe ${path.join(' ')} --`, where);
        for (const flag of ownFlags(node)) assert.ok(offered.includes(flag), `csafe ${path.join(' ')} --<TAB> offers ${flag}`);
        assert.ok(offered.includes('--profile') && offered.includes('--output'), 'and the global flags');
      }),
    );
    assert.deepEqual(await fish('csafe classify --fail-on ', where), ['match', 'review']);
    assert.deepEqual(await fish('csafe --profile ', where), ['default', 'work']);
    assert.deepEqual(await fish('csafe webhooks trigger ', where), ['batch.completed', 'decision.completed', 'workflow.failed', 'workflow.succeeded']);
    assert.ok((await fish('csafe data add listings ', where)).includes('a-file.jsonl'), 'a file argument completes files');
    assert.deepEqual(await fish('csafe emulator start --data-dir ', where), ['a-dir/']);
    assert.deepEqual(await fish('csafe emulator exec -- csafe da', where), ['data'], 'after --, the command line of its own');
  });

  it('zsh: in a real interactive zsh, each group\'s verbs, each command\'s flags and the values of flags and arguments', { skip: !hasShell('zsh') && 'zsh is not installed' }, async () => {
    await run('zsh', ['-n', repoPath(SCRIPT_FILES.zsh)]);
    const where = environment();
    // The first shell, alone, writes compinit's dump; the others, also those at once, read it.
    assert.deepEqual(await zsh('csafe ', where), sorted(TREE.map((node) => node.name)));
    for (const { path, node } of walkTree(TREE)) {
      if (isGroup(node)) assert.deepEqual(await zsh(`csafe ${path.join(' ')} `, where), sorted(node.commands.map((verb) => verb.name)), `csafe ${path.join(' ')} <TAB>`);
    }
    await Promise.all(
      commands().map(async ({ path, node }) => {
        const offered = await zsh(`csafe ${path.join(' ')} --`, where);
        for (const flag of ownFlags(node)) assert.ok(offered.includes(flag), `csafe ${path.join(' ')} --<TAB> offers ${flag}: ${offered.join(' ')}`);
        assert.ok(offered.includes('--profile') && offered.includes('--output'), 'and the global flags');
      }),
    );
    assert.deepEqual(await zsh('csafe classify --fail-on ', where), ['match', 'review']);
    assert.deepEqual(await zsh('csafe classify --fail-on=', where), ['match', 'review']);
    assert.deepEqual(await zsh('csafe --profile ', where), ['default', 'work']);
    assert.deepEqual(await zsh('csafe --output ', where), ['json', 'ndjson', 'table', 'tsv']);
    assert.deepEqual(await zsh('csafe auth status --prof', where), ['--profile']);
    assert.deepEqual(await zsh('csafe emulator start --data-dir ', where), ['a-dir']);
    writeFileSync(join(where.cwd, 'my events.jsonl'), '');
    assert.deepEqual(await zsh('csafe data add listings my', where), ['my\\ events.jsonl']);
    assert.deepEqual(await zsh('csafe emulator exec -- csafe da', where), ['data']);
  });
});
