import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { walkTree } from '../../src/commands/declaration.js';
import { expandShortcuts } from '../../src/commands/shortcuts.js';
import { TREE } from '../../src/commands/tree.js';
import { runCsafe } from '../helpers/cli.js';
// What help and version print for their command line is main()'s answer: in this process. The one real process checks the build's commit.
import { runInProcess } from '../helpers/in-process.js';

const usageLine = (help: string) => help.split('\n')[0];

describe('help at every depth', () => {
  it('csafe alone prints its help on stdout and exits 0, so `csafe | less` shows it', async () => {
    const { code, stdout, stderr } = await runInProcess([]);
    assert.equal(code, 0, stderr);
    assert.equal(usageLine(stdout), 'Usage: csafe [options] [command]');
    assert.equal(stderr, '');
  });

  it('a group alone (csafe data) prints the group\'s help on stdout and exits 0', async () => {
    const { code, stdout, stderr } = await runInProcess(['data']);
    assert.equal(code, 0, stderr);
    assert.equal(usageLine(stdout), 'Usage: csafe data [options] [command]');
  });

  for (const words of [['data', 'add'], ['events', 'send'], ['classify'], ['data']]) {
    it(`csafe help ${words.join(' ')} prints what csafe ${words.join(' ')} --help prints`, async () => {
      const viaHelp = await runInProcess(['help', ...words]);
      const viaFlag = await runInProcess([...words, '--help']);
      assert.equal(viaHelp.code, 0, viaHelp.stderr);
      assert.equal(viaHelp.stdout, viaFlag.stdout);
      assert.match(usageLine(viaHelp.stdout)!, new RegExp(`^Usage: csafe ${words.join(' ')} `));
    });
  }

  for (const [words, message] of [
    [['nosuch'], /^error: unknown command "nosuch"\nhint: `csafe --help` lists the commands\n$/],
    [['data', 'nosuch'], /^error: unknown command "data nosuch"\nhint: `csafe data --help` lists the commands\n$/],
    [['classify', 'more'], /^error: unknown command "classify more": classify has no subcommands\n$/],
  ] as const) {
    it(`csafe help ${words.join(' ')} says the command is unknown (exit 2), printing no help`, async () => {
      const { code, stdout, stderr } = await runInProcess(['help', ...words]);
      assert.equal(code, 2, stderr);
      assert.equal(stdout, '');
      assert.match(stderr, message);
    });
  }

  for (const words of [['config'], ['data', 'add']]) {
    it(`csafe ${[words[0], 'help', ...words.slice(1)].join(' ')} prints what csafe ${words.join(' ')} --help prints, exit 0 as for help listed among the group's commands`, async () => {
      const viaHelp = await runInProcess([words[0]!, 'help', ...words.slice(1)]);
      const viaFlag = await runInProcess([...words, '--help']);
      assert.equal(viaHelp.code, 0, viaHelp.stderr);
      assert.equal(viaHelp.stdout, viaFlag.stdout);
    });
  }

  it('csafe data help nosuch says the command is unknown (exit 2), printing no help', async () => {
    const { code, stdout, stderr } = await runInProcess(['data', 'help', 'nosuch']);
    assert.equal(code, 2, stderr);
    assert.equal(stdout, '');
    assert.equal(stderr, 'error: unknown command "data nosuch"\nhint: `csafe data --help` lists the commands\n');
  });

  it('keeps global flags given before help, and what follows a group is still a verb to run', () => {
    assert.deepEqual(expandShortcuts(['--profile', 'help', 'help', 'data', 'add'], TREE), ['--profile', 'help', 'data', 'add', '--help']);
    assert.deepEqual(expandShortcuts(['data', 'add', 'ns', 'f.jsonl'], TREE), ['data', 'add', 'ns', 'f.jsonl']);
    assert.deepEqual(expandShortcuts(['data', '--help'], TREE), ['data', '--help']);
  });
});

describe('help fitted to the terminal, with the flags every command inherits', () => {
  const commands = [[], ...[...walkTree(TREE)].map(({ path }) => [...path])];

  /** Lines wider than `width`, but for the usage line, the examples (command lines to copy whole), a line of one word and a flag alone on its line. */
  const overflowing = (help: string, width: number) => {
    let inExamples = false;
    return help.split('\n').filter((line) => {
      if (/^\S/.test(line)) inExamples = line === 'Examples:';
      const flagAlone = /^ {2}(-\w, )?--[\w-]+( <[^>]+>)?$/.test(line);
      return [...line].length > width && !inExamples && !line.startsWith('Usage:') && line.trim().includes(' ') && !flagAlone;
    });
  };

  for (const width of [40, 80, 120]) {
    it(`every --help at ${width} columns: no line wider, option descriptions wrapped (under their flag when narrow)`, async () => {
      const wide: string[] = [];
      for (const words of commands) {
        const { code, stdout, stderr } = await runInProcess([...words, '--help'], { env: { COLUMNS: String(width) } });
        assert.equal(code, 0, stderr);
        wide.push(...overflowing(stdout, width).map((line) => `csafe ${words.join(' ')} --help: ${line}`));
      }
      assert.deepEqual(wide, []);
    });
  }

  it('a group lists its verbs by name, so its list fits 80 columns', async () => {
    const { stdout } = await runInProcess(['data', '--help'], { env: { COLUMNS: '80' } });
    assert.match(stdout, /^Commands:\n {2}add {2,}Add objects to a namespace/m);
  });

  it('every verb\'s --help lists the global flags it takes (classify --help names --json, -o and --emulator), but not --version', async () => {
    for (const words of [['classify'], ['data', 'add'], ['emulator', 'start']]) {
      const { stdout } = await runInProcess([...words, '--help']);
      const inherited = stdout.slice(stdout.indexOf('\nGlobal Options:\n'));
      assert.ok(inherited.length > 1, `csafe ${words.join(' ')} --help has a Global Options section`);
      for (const flag of ['-o, --output <format>', '--emulator', '--profile <name>']) assert.ok(inherited.includes(`  ${flag}`), `${flag} in csafe ${words.join(' ')} --help`);
      assert.doesNotMatch(inherited, /--version/);
    }
    assert.ok((await runInProcess(['classify', '--help'])).stdout.includes('\nGlobal Options:\n  --profile'));
  });

  it('a flag a command declares with a meaning of its own is listed once, as its own (emulator start\'s --api-key and --json)', async () => {
    const { stdout } = await runInProcess(['emulator', 'start', '--help'], { env: { COLUMNS: '1000' } });
    assert.equal(stdout.match(/^ {2}--api-key <key>/gm)?.length, 1, stdout);
    assert.equal(stdout.match(/^ {2}--json/gm)?.length, 1, stdout);
    assert.match(stdout, /^ {2}--api-key <key> +the API key the emulator accepts/m);
  });

  it('a global flag between a group and its verb still runs the verb; a flag missing its value is commander\'s to report', () => {
    assert.deepEqual(expandShortcuts(['config', '--profile', 'staging', 'set', 'output', 'json'], TREE), ['config', '--profile', 'staging', 'set', 'output', 'json']);
    assert.deepEqual(expandShortcuts(['--emulator', 'data', '--json', 'add', 'listings', 'f.jsonl'], TREE), ['--emulator', 'data', '--json', 'add', 'listings', 'f.jsonl']);
    assert.deepEqual(expandShortcuts(['data', '--json'], TREE), ['data', '--json', '--help']);
    assert.deepEqual(expandShortcuts(['-o'], TREE), ['-o']);
    assert.deepEqual(expandShortcuts(['help', '--json', 'data'], TREE), ['--json', 'data', '--help']);
    assert.deepEqual(expandShortcuts(['help', 'help'], TREE), ['--help']);
    assert.deepEqual(expandShortcuts(['help', 'data', 'add', '--wait'], TREE), ['data', 'add', '--help'], 'a flag of the command does not change which help');
    assert.deepEqual(expandShortcuts(['help', 'emulator', 'start', '--port', '1'], TREE), ['emulator', 'start', '--help']);
    assert.deepEqual(expandShortcuts(['emulator', '--port', '0'], TREE), ['emulator', '--port', '0', '--help'], 'a group with a flag and no verb is its help');
    assert.deepEqual(expandShortcuts(['-v', 'data'], TREE), ['-v', 'data', '--help']);
  });

  it('a global flag as --flag=value, -ovalue or -qv between a group and its verb still runs the verb, not the verb\'s help', () => {
    assert.deepEqual(expandShortcuts(['config', '--output=json', 'list'], TREE), ['config', '--output=json', 'list']);
    assert.deepEqual(expandShortcuts(['config', '--profile=staging', 'get', 'base_url'], TREE), ['config', '--profile=staging', 'get', 'base_url']);
    assert.deepEqual(expandShortcuts(['config', '-ojson', 'list'], TREE), ['config', '-ojson', 'list']);
    assert.deepEqual(expandShortcuts(['config', '-qv', 'list'], TREE), ['config', '-qv', 'list']);
    assert.deepEqual(expandShortcuts(['help', '--output=json', 'config'], TREE), ['--output=json', 'config', '--help']);
    assert.deepEqual(expandShortcuts(['--profile=staging'], TREE), ['--profile=staging', '--help']);
  });

  for (const [args, message] of [
    [['events', '--dry-run', 'send', 'f.jsonl'], "error: unknown option '--dry-run'\n"],
    [['config', '--bogus', 'list'], "error: unknown option '--bogus'\n"],
    [['data', '--bogus'], "error: unknown option '--bogus'\n"],
    [['classify', '-text', 'hi'], "error: unknown option '-text' (a long flag takes two dashes: --text)\n"],
    [['--verison'], "error: unknown option '--verison' (did you mean --version?)\n"],
    [['--api-kye=sk_secret_1'], "error: unknown option '--api-kye=…'\n"],
  ] as const) {
    it(`csafe ${args.join(' ')} is refused (exit 2), not help that exits 0 having run nothing`, async () => {
      const { code, stdout, stderr } = await runInProcess([...args]);
      assert.equal(stderr, message);
      assert.equal(code, 2);
      assert.equal(stdout, '');
    });
  }

  it('too many arguments (csafe events send a.jsonl b.jsonl) says how many the command takes, and its usage', async () => {
    const { code, stdout, stderr } = await runInProcess(['events', 'send', 'a.jsonl', 'b.jsonl']);
    assert.equal(stderr, 'error: too many arguments: csafe events send takes at most 1, got 2\nhint: usage: csafe events send [options] [file]\n');
    assert.equal(code, 2);
    assert.equal(stdout, '');
  });

  it('a flag given last without its value (csafe classify -o) says which flag needs one, not commander\'s "argument missing"', async () => {
    const { code, stderr } = await runInProcess(['classify', '--text', 'hi', '-o']);
    assert.equal(stderr, 'error: -o, --output: needs a value (<format>), and none was given\n');
    assert.equal(code, 2);
  });

  it('--version after a command names the build too', async () => {
    const { code, stdout } = await runInProcess(['data', '--version']);
    assert.equal(code, 0);
    assert.match(stdout, /^csafe \S+ .*on Node v/);
  });
});

describe('csafe version', () => {
  const LINE = /^csafe \d+\.\d+\.\d+(-[\w.]+)? (\(commit [0-9a-f]{12}, built \d{4}-\d{2}-\d{2}\) )?on Node v\d+\.\d+\.\d+, \w+-\w+\n$/;

  for (const args of [['version'], ['--version'], ['-V']]) {
    it(`csafe ${args.join(' ')} names the release and the Node.js running it on one line, in a pipe too`, async () => {
      const { code, stdout, stderr } = await runInProcess(args);
      assert.equal(code, 0, stderr);
      assert.match(stdout, LINE);
      assert.ok(stdout.includes(`on Node ${process.version}, `), stdout);
    });
  }

  it('--json gives the same as fields, with `csafe --version --json` too', async () => {
    for (const args of [['version', '--json'], ['--version', '--json'], ['--json', 'version']]) {
      const { code, stdout, stderr } = await runInProcess(args);
      assert.equal(code, 0, stderr);
      const info = JSON.parse(stdout) as Record<string, string>;
      assert.match(info.version!, /^\d+\.\d+\.\d+/);
      assert.equal(info.node, process.version);
      assert.equal(info.platform, `${process.platform}-${process.arch}`);
    }
  });

  it('the built csafe names the commit and the date it was built from (this checkout\'s HEAD)', async () => {
    const [line, json] = await Promise.all([runCsafe(['--version']), runCsafe(['version', '--json'])]);
    assert.equal(line.code, 0, line.stderr);
    assert.match(line.stdout, /^csafe \S+ \(commit [0-9a-f]{12}, built \d{4}-\d{2}-\d{2}\) on Node /);
    const info = JSON.parse(json.stdout) as { commit: string; built: string };
    assert.ok(line.stdout.includes(`commit ${info.commit}, built ${info.built.slice(0, 10)}`), line.stdout);
    assert.ok(!Number.isNaN(Date.parse(info.built)), info.built);
  });
});
