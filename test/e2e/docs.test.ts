import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
// The help texts are main()'s answer to --help: read in this process (startup.test runs --help as a real process).
import { runInProcess } from '../helpers/in-process.js';

const repoPath = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const repoFile = (path: string) => readFileSync(repoPath(path), 'utf8');

/** The command tree as commander shows it: global flags, and per group, per verb ('' for a group that is itself a command), its own flags. */
interface CommandTree {
  globals: string[];
  groups: Map<string, Map<string, string[]>>;
}

/** The lines of one section of --help ("Options:", "Commands:") up to the blank line that ends it. */
const section = (help: string, title: string) => {
  const start = help.indexOf(`\n${title}\n`);
  if (start < 0) return '';
  const body = help.slice(start + title.length + 2);
  return body.slice(0, body.search(/\n\n|$/));
};
const flagsIn = (help: string) => [...section(help, 'Options:').matchAll(/^ {2}(?:(-\w), )?(--[\w-]+)/gm)].flatMap((m) => (m[1] ? [m[1], m[2]!] : [m[2]!]));
const commandsIn = (help: string) => [...section(help, 'Commands:').matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
const helpOf = async (...words: string[]) => {
  // Read unwrapped, a flag and its description on one line (test/e2e/help-depth checks the wrapping).
  const { code, stdout, stderr } = await runInProcess([...words, '--help'], { env: { COLUMNS: '1000' } });
  assert.equal(code, 0, stderr);
  return stdout;
};

async function commandTree(): Promise<CommandTree> {
  const root = await helpOf();
  const groups = new Map<string, Map<string, string[]>>();
  await Promise.all(commandsIn(root).map(async (group) => {
    const help = await helpOf(group);
    const verbs = commandsIn(help);
    const entries = verbs.length === 0 ? [['', flagsIn(help)] as const] : await Promise.all(verbs.map(async (verb) => [verb, flagsIn(await helpOf(group, verb))] as const));
    groups.set(group, new Map(entries));
  }));
  return { globals: flagsIn(root), groups };
}

const HELP_FLAGS = ['-h', '--help'];
const sorted = (words: Iterable<string>) => [...new Set(words)].sort();

/** What the bash completion offers for the command line `words`, the last being the word under the cursor. */
async function bashCompletion(words: string[]): Promise<string[]> {
  const script = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _csafe; printf "%s\\n" "${COMPREPLY[@]}"';
  const { stdout } = await promisify(execFile)('bash', ['--norc', '--noprofile', '-c', script, 'bash', repoPath('completions/csafe.bash'), 'csafe', ...words]);
  return sorted(stdout.split('\n').filter(Boolean));
}

describe('documentation stays in step with the commands', () => {
  let tree: CommandTree;
  before(async () => {
    tree = await commandTree();
  });
  const eachCommand = () => [...tree.groups].flatMap(([group, verbs]) => [...verbs].map(([verb, flags]) => ({ group, verb, flags })));

  it('reads a tree to check against (so an empty one cannot pass)', () => {
    assert.ok(tree.globals.includes('--output') && tree.globals.includes('-o'));
    assert.deepEqual(sorted(tree.groups.get('data')!.keys()), ['add', 'download', 'import', 'status']);
    assert.ok(tree.groups.get('data')!.get('import')!.includes('--no-validate'));
    assert.deepEqual([...tree.groups.get('classify')!.keys()], ['']);
  });

  it('bash: `csafe <TAB>` offers every group and global flag, `csafe <group> <TAB>` exactly its verbs', async () => {
    assert.deepEqual(await bashCompletion(['']), sorted([...tree.groups.keys(), ...tree.globals]));
    for (const [group, verbs] of tree.groups) {
      if (verbs.has('')) continue;
      assert.deepEqual(await bashCompletion([group, '']), sorted(verbs.keys()), `csafe ${group} <TAB>`);
    }
  });

  it('bash: `csafe <group> <verb> -<TAB>` offers exactly that verb\'s flags and the global ones', async () => {
    await Promise.all(eachCommand().map(async ({ group, verb, flags }) => {
      const line = verb === '' ? [group, '-'] : [group, verb, '-'];
      assert.deepEqual(await bashCompletion(line), sorted([...flags, ...tree.globals]), `csafe ${line.join(' ')}<TAB>`);
    }));
  });

  it('bash: global flags and their values before the group do not count as the group', async () => {
    assert.deepEqual(await bashCompletion(['--profile', 'work', 'data', '']), ['add', 'download', 'import', 'status']);
  });

  it('the man page and the README document every command and every flag', () => {
    const man = readdirSync(repoPath('man')).filter((name) => name.endsWith('.1')).map((name) => repoFile(`man/${name}`)).join('\n');
    const readme = repoFile('README.md');
    const missing: string[] = [];
    const expect = (found: boolean, what: string) => void (found || missing.push(what));
    for (const { group, verb, flags } of eachCommand()) {
      const command = `${group} ${verb}`.trim();
      expect(man.includes(command.replaceAll('-', '\\-')), `man/*.1: ${command}`);
      // The README may list a group's verbs together: `csafe config get|set|unset|list`.
      expect(new RegExp(`csafe ${group}\\b[^\\n]*\\b${verb}\\b`).test(readme), `README.md: csafe ${command}`);
      for (const flag of flags.filter((f) => f.startsWith('--') && !HELP_FLAGS.includes(f))) {
        expect(man.includes(flag.replaceAll('-', '\\-')), `man/*.1: ${command} ${flag}`);
        expect(readme.includes(flag), `README.md: ${command} ${flag}`);
      }
    }
    for (const flag of tree.globals.filter((f) => f.startsWith('--') && !HELP_FLAGS.includes(f))) {
      expect(man.includes(flag.replaceAll('-', '\\-')), `man/*.1: global ${flag}`);
      expect(readme.includes(flag), `README.md: global ${flag}`);
    }
    assert.deepEqual(missing, []);
  });

  it('the README\'s list of the files in examples/ names every one of them, so a newcomer knows what each is for', () => {
    const readme = repoFile('README.md');
    const list = /the\s+files they read ship in `examples\/` \(([\s\S]*?)\)\. A few read/.exec(readme);
    assert.ok(list, 'README.md lists the files of examples/');
    const named = new Set([...list[1]!.matchAll(/`([\w.-]+\.\w+)`/g)].map((m) => m[1]!));
    assert.deepEqual(readdirSync(repoPath('examples')).filter((name) => !named.has(name)), []);
  });

  it('the exit-code table says the same in --help, the README and the man page', async () => {
    const help = (await runInProcess(['--help'], { env: { COLUMNS: '1000' } })).stdout;
    const inHelp = [...help.slice(help.indexOf('Exit codes')).matchAll(/^ {2}(\d+(?:, \d+)?) +(.+)$/gm)].map(([, code, meaning]) => [code, meaning]);
    const inReadme = [...repoFile('README.md').matchAll(/^\| (\d+(?:, \d+)?) \| (.+) \|$/gm)].map(([, code, meaning]) => [code, meaning!.replaceAll('`', '')]);
    const man = repoFile('man/csafe.1');
    const status = man.slice(man.indexOf('.SH EXIT STATUS'), man.indexOf('.SH ENVIRONMENT'));
    // A meaning may be filled over several lines, up to the next entry.
    const inMan = [...`${status}\n.`.matchAll(/^\.B (.+)\n([^.][\s\S]*?)(?=^\.)/gm)].map(([, code, meaning]) => [code, meaning!.trim().replaceAll('\n', ' ').replaceAll('\\-', '-')]);
    assert.deepEqual(inHelp.map(([code]) => code), ['0', '1', '2', '3', '4', '5', '75', '124', '126, 127', '130, 143']);
    assert.deepEqual(inReadme, inHelp);
    assert.deepEqual(inMan, inHelp);
  });
});
