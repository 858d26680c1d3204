import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, EXAMPLES, outcome, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
// The help texts and the setup runs are in this process; every example itself runs as written, in a shell.
import { runInProcess } from '../helpers/in-process.js';

/**
 * Every example the documentation gives — in each command's --help, README.md's ```sh blocks and
 * the man page's EXAMPLES — runs as written against an emulator, in a directory holding the files
 * the examples name, with `csafe` on PATH.
 */

const repoPath = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const repoFile = (path: string) => readFileSync(repoPath(path), 'utf8');

interface Example {
  command: string;
  /** Where the example is written: `csafe data add --help`, `README.md`, `man/*.1`. */
  sources: string[];
  /** The exit code the docs give for it (`# exit 4 when …`), else 0. */
  expectedCode: number;
}

const onPath = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

/** README's Scale out recipes for GNU parallel, run where it is installed. */
const GNU_PARALLEL_EXAMPLES = [
  'parallel -j4 csafe data add listings examples/listings.jsonl --shard {}/4 --checkpoint state-{}.json --failed failed-{}.jsonl ::: 0 1 2 3',
  "parallel -j4 'csafe classify --batch examples/items.jsonl --user-id u1 --shard {}/4 > results-{}.ndjson' ::: 0 1 2 3",
];

/** Examples that cannot run unattended and offline, with the reason. Each must still be in the docs. */
const NOT_RUN: ReadonlyMap<string, string> = new Map([
  ['git clone <this repository> csafe && cd csafe', 'needs the network and the address of a repository'],
  ['npm ci', 'installs from the npm registry; this test runs on the installed tree'],
  ['npm link', 'changes the global npm prefix of the machine'],
  ['npm test', 'is the suite this test is part of'],
  ['npm run test:soak', 'the soak-sized tests, minutes of full load, deliberately not part of npm test (.ci/run runs them after it)'],
  ['npm run test:reliability', 'the fault matrix and the crash and interrupt tests, minutes of full load, deliberately not part of npm test (.ci/run runs them after it)'],
  ['npm run bench', 'minutes of full load, deliberately not part of npm test'],
  ['npm run bench -- --quick', 'minutes of full load, deliberately not part of npm test (test/bench runs a tiny row)'],
  ['npm run bench -- import-83', 'a 1 GiB file and minutes of full load, deliberately not part of npm test'],
  ['npm run gen', 'writes the repository\'s completions/ and man/; test/e2e/completion.test.ts and manual.test.ts check they are what it writes'],
  ['npm run test:matrix', 'minutes of full load under two more Nodes, and the npm registry, deliberately not part of npm test (.ci/run runs it after it)'],
  ['npm run build:binary', 'writes dist/csafe-linux-x64 in the repository; test/e2e/binary.test.ts (npm run test:matrix) builds one of its own and runs it'],
  ['./dist/csafe-linux-x64 --emulator classify --text hi --user-id u1', 'needs npm run build:binary first; test/e2e/binary.test.ts runs the same'],
  ['npm run mutate', 'tens of minutes of full load, deliberately not part of npm test'],
  ['npm run mutate -- --mutate src/core/http/retry.ts', 'minutes of full load, deliberately not part of npm test'],
  ['npm run mutate -- .ci/stryker.core.config.mjs --mutate "src/core/cli/**/*.ts"', 'minutes of full load, deliberately not part of npm test'],
  ['CSAFE_MUTATE_TESTS="dist/test/core/json/**/*.test.js,dist/test/core/input/lines.test.js" npm run mutate -- .ci/stryker.core.config.mjs --mutate src/core/json/scan.ts', 'minutes of full load, deliberately not part of npm test'],
  ['cp reports/mutation/mutation.json before.json && npm run mutate -- .ci/stryker.core.config.mjs --mutate "$(node .ci/mutants.mjs survivors before.json)"', 'needs the report of an earlier mutation run, and minutes of full load'],
  ['node .ci/mutants.mjs score before.json reports/mutation/mutation.json', 'needs the reports of two mutation runs'],
  ['csafe emulator start', 'runs until interrupted, on the fixed port 4477; this test runs its own with --port 0'],
  [
    `tail -f chat.log | jq -c '{type:"chat_message", sender_id:.uid, sender_display_name:.name, text:.msg, timestamp:.ts}' | csafe stream parts live --id show-42 --follow`,
    'follows a log until interrupted (the same parts piped by cat are run)',
  ],
  ['export CSAFE_BASE_URL=http://127.0.0.1:4477 CSAFE_API_KEY=sk_test_csafe_emulator', 'the test sets both, to the emulator it started'],
  ['csafe config set base_url https://<your service host>', 'a placeholder for the real service'],
  ['csafe auth login', 'asks for the key on a terminal (the --with-token form is run)'],
  ...(onPath('parallel') ? [] : GNU_PARALLEL_EXAMPLES.map((command) => [command, 'GNU parallel is not installed here (the xargs -P lines beside it are run)'] as const)),
]);

/** Values the docs write as placeholders; the test substitutes real ones made before the examples run. */
const PLACEHOLDERS = ['req_123', 'req_456', '<access_token>', 'dec_123', 'imp_123', 'bat_123'] as const;

/** The indented lines under a heading of a --help (`Examples:`, `Environment:`), trimmed. */
function helpSection(help: string, title: string): string[] {
  const heading = `\n${title}:\n`;
  const start = help.indexOf(heading);
  if (start === -1) return [];
  const lines = help.slice(start + heading.length).split('\n');
  const end = lines.findIndex((line) => !line.startsWith('  '));
  return lines.slice(0, end === -1 ? undefined : end).map((line) => line.trim());
}

const helpExamples = (help: string) => helpSection(help, 'Examples');
const helpEnvironment = (help: string) => helpSection(help, 'Environment');

function subcommands(help: string): string[] {
  const start = help.indexOf('\nCommands:\n');
  if (start === -1) return [];
  const section = help.slice(start).split('\n\n')[0]!;
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

interface HelpText {
  source: string;
  help: string;
  /** A verb, or a group that is itself a command (classify): not `csafe --help` or a group's. */
  leaf: boolean;
}

/** `csafe --help`, then each group's help, then each verb's: the whole command tree. */
async function helpTexts(): Promise<HelpText[]> {
  const help = async (path: string[]) => {
    // Read unwrapped: an example or a variable on one line each (test/e2e/help-depth checks the wrapping).
    const { code, stdout, stderr } = await runInProcess([...path, '--help'], { env: { COLUMNS: '1000' } });
    assert.equal(code, 0, stderr);
    return stdout;
  };
  const rootHelp = await help([]);
  const perGroup = await Promise.all(
    subcommands(rootHelp).map(async (group) => {
      const groupHelp = await help([group]);
      const verbs = subcommands(groupHelp);
      if (verbs.length === 0) return [{ source: `csafe ${group} --help`, help: groupHelp, leaf: true }];
      const verbHelps = await Promise.all(verbs.map(async (verb) => ({ source: `csafe ${group} ${verb} --help`, help: await help([group, verb]), leaf: true })));
      return [{ source: `csafe ${group} --help`, help: groupHelp, leaf: false }, ...verbHelps];
    }),
  );
  return [{ source: 'csafe --help', help: rootHelp, leaf: false }, ...perGroup.flat()];
}

const helps = await helpTexts();

/** Lines of README.md's ```sh blocks, with their trailing `# comment` kept apart. */
function readmeExamples(): string[] {
  return [...repoFile('README.md').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1]!.split('\n')).filter((line) => line.trim() !== '');
}

/** The EXAMPLES of every man page (man/*.1), as a reader types them: a line continued with `\` joined to the next, escapes undone. */
function manExamples(): string[] {
  return readdirSync(repoPath('man'))
    .filter((name) => name.endsWith('.1'))
    .flatMap((name) => {
      const section = /^\.SH EXAMPLES\n\.nf\n([\s\S]*?)^\.fi$/m.exec(repoFile(`man/${name}`));
      assert.ok(section, `man/${name} has an EXAMPLES section`);
      return section[1]!.replaceAll(' \\\n', ' ').split('\n');
    })
    .filter((line) => line !== '')
    .map((line) => line.replaceAll('\\&', '').replaceAll('\\-', '-').replaceAll('\\e', '\\').replace(/\\\[u([0-9A-F]{4,5})\]/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16))));
}

async function collectExamples(): Promise<Example[]> {
  const found = new Map<string, Example>();
  const add = (line: string, source: string) => {
    const comment = /\s+#\s(.*)$/.exec(line);
    const command = (comment ? line.slice(0, comment.index) : line).trim();
    const stated = comment && /\bexit (\d+)\b/.exec(comment[1]!);
    const example = found.get(command) ?? { command, sources: [], expectedCode: 0 };
    if (stated) example.expectedCode = Number(stated[1]);
    if (!example.sources.includes(source)) example.sources.push(source);
    found.set(command, example);
  };
  for (const { source, help } of helps) for (const line of helpExamples(help)) add(line, source);
  for (const line of readmeExamples()) add(line, 'README.md');
  for (const line of manExamples()) add(line, 'man/*.1');
  return [...found.values()];
}

const examples = await collectExamples();

/** The profile `staging` of the examples' config file. */
const STAGING = { base_url: 'https://csafe.staging.example.com', user_id: 'u1' };

/** The files the examples name, and `bin/csafe` (README: `./bin/csafe`), the launcher on PATH. */
async function writeFixtures(dir: string): Promise<void> {
  const events = (await runInProcess(['events', 'example'])).stdout;
  assert.equal(events.trim().split('\n').length, 7, 'csafe events example prints the seven variants');
  assert.equal(readFileSync(join(EXAMPLES, 'events.jsonl'), 'utf8'), events, 'examples/events.jsonl is what `csafe events example > examples/events.jsonl` writes');
  cpSync(EXAMPLES, join(dir, 'examples'), { recursive: true });
  // README's install lines: the completions and the man page, put under HOME, which is the fixture directory.
  for (const shipped of ['completions', 'man']) cpSync(fileURLToPath(new URL(`../../../${shipped}/`, import.meta.url)), join(dir, shipped), { recursive: true });
  // Every file an example reads ships in examples/, but what an earlier run writes: a --failed file.
  const files: Record<string, string | Buffer> = { 'failed.jsonl': events };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  // The examples' CSAFE_CONFIG_DIR: a second profile for the examples of --profile to name.
  mkdirSync(join(dir, '.config'));
  writeFileSync(join(dir, '.config', 'config.json'), JSON.stringify({ profiles: { staging: STAGING } }, null, 2), { mode: 0o600 });
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'csafe'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(dir, 'bin', 'csafe'), 0o755);
}

/** One example in a shell of its own (pipefail, so `csafe … | jq` fails when csafe does). */
const runShell = (command: string, cwd: string, env: NodeJS.ProcessEnv) => outcome(spawn('bash', ['-o', 'pipefail', '-c', command], { cwd, env }));

/**
 * An example that serves until interrupted (`csafe emulator start`, `csafe webhooks listen`): run
 * until it has printed a line on stdout or stderr (its ready line), then Ctrl-C to its process
 * group, as a user would; it must then stop cleanly.
 */
const servesUntilInterrupted = (example: Example) => /^csafe (emulator start|webhooks listen)\b/.test(example.command);

async function runUntilReadyThenInterrupt(command: string, cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn('bash', ['-o', 'pipefail', '-c', command], { cwd, env, detached: true });
  const result = outcome(child);
  const deadline = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 30_000);
  try {
    await Promise.race([new Promise((resolve) => child.stdout.once('data', resolve)), new Promise((resolve) => child.stderr.once('data', resolve)), result]);
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    return await result;
  } finally {
    clearTimeout(deadline);
  }
}

/** Examples that clear the emulator's state run after all the others, which rely on what was added first. */
const clearsState = (example: Example) => /_emulator\/reset|-X DELETE|^csafe emulator reset\b/.test(example.command);

describe('every example in --help, README.md and the man pages runs as written', () => {
  let emulator: EmulatorProcess;
  const fixtures = tempDir();
  const substitutes = new Map<string, string>();

  const environment = (dir: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('CSAFE_') && name !== 'FORCE_COLOR') env[name] = value;
    return {
      ...env,
      ...emulator.env,
      KEY: emulator.apiKey,
      PATH: `${join(fixtures, 'bin')}:${process.env.PATH ?? ''}`,
      // README's install lines write under ~: here the example's own directory.
      HOME: dir,
      CSAFE_CONFIG_DIR: join(dir, '.config'),
      CSAFE_EMULATOR_DATA_DIR: join(dir, '.emulator'),
    };
  };

  before(async () => {
    emulator = await startEmulatorProcess(['--processing-delay', '100ms']);
    await writeFixtures(fixtures);
    const added = await runInProcess(['data', 'add', 'listings', join(EXAMPLES, 'listings.jsonl'), '--json'], { env: emulator.env });
    assert.equal(added.code, 0, added.stderr);
    substitutes.set('req_123', /"(req_[\w-]+)"/.exec(added.stdout)![1]!);
    const importedData = await runInProcess(['data', 'import', 'listings', join(EXAMPLES, 'listings.jsonl'), '--wait', '--json'], { env: emulator.env });
    assert.equal(importedData.code, 0, importedData.stderr);
    substitutes.set('req_456', JSON.parse(importedData.stdout).request_id);
    const token = await runInProcess(['token', 'create', '--json'], { env: emulator.env });
    assert.equal(token.code, 0, token.stderr);
    substitutes.set('<access_token>', JSON.parse(token.stdout).access_token);
    const imported = await runInProcess(['import', 'create', join(EXAMPLES, 'records.jsonl'), '--json'], { env: emulator.env });
    assert.equal(imported.code, 0, imported.stderr);
    substitutes.set('imp_123', JSON.parse(imported.stdout).import_id);
    const decision = await runInProcess(['decision', 'create', '--type', 'text', '--content', '{"text":"see you"}', '--json'], { env: emulator.env });
    assert.equal(decision.code, 0, decision.stderr);
    substitutes.set('dec_123', JSON.parse(decision.stdout).decision_id);
    const batch = await runInProcess(['batch', 'create', '--type', 'text', join(EXAMPLES, 'reviews.csv'), '--wait', '--json'], { env: emulator.env });
    assert.equal(batch.code, 0, batch.stderr);
    substitutes.set('bat_123', JSON.parse(batch.stdout).batch_id);
  });
  after(() => emulator?.stop());

  it('finds examples in every source, and each example not run is still in the docs', () => {
    for (const source of ['README.md', 'man/*.1', 'csafe classify --help', 'csafe data add --help', 'csafe events send --help']) {
      assert.ok(examples.some((example) => example.sources.includes(source)), `no example found in ${source}`);
    }
    for (const command of NOT_RUN.keys()) assert.ok(examples.some((example) => example.command === command), `not in the docs any more: ${command}`);
  });

  const run = (example: Example) => {
    const reason = NOT_RUN.get(example.command);
    it(example.command, { skip: reason }, async () => {
      const dir = tempDir('csafe-example-');
      cpSync(fixtures, dir, { recursive: true });
      const command = PLACEHOLDERS.reduce((text, placeholder) => text.replaceAll(placeholder, substitutes.get(placeholder)!), example.command);
      const run = servesUntilInterrupted(example) ? runUntilReadyThenInterrupt : runShell;
      const { code, stdout, stderr } = await run(command, dir, environment(dir));
      assert.equal(code, example.expectedCode, `${example.command}\n(from ${example.sources.join(', ')})\nstdout: ${stdout.slice(0, 2000)}\nstderr: ${stderr}`);
      assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
    });
  };
  describe('that use the state', { concurrency: 4 }, () => examples.filter((example) => !clearsState(example)).forEach(run));
  describe('that clear the state, after those', () => examples.filter(clearsState).forEach(run));
});

describe('every --help ends with examples and the environment variables the command reads', () => {
  const leaves = helps.filter((help) => help.leaf);

  it('reads the whole command tree (so an empty one cannot pass)', () => {
    const sources = helps.map((help) => help.source);
    for (const source of ['csafe --help', 'csafe data --help', 'csafe classify --help', 'csafe auth login --help', 'csafe emulator start --help']) {
      assert.ok(sources.includes(source), `${source} was not read`);
    }
    assert.ok(leaves.length >= 25, `only ${leaves.length} commands found`);
  });

  for (const { source, help } of helps) {
    it(`${source}: two or three examples, and an Environment section`, () => {
      const count = helpExamples(help).length;
      assert.ok(count >= 2 && count <= 3, `${source} has ${count} examples (the rest belong in README.md):\n${help}`);
      const environment = helpEnvironment(help);
      assert.ok(environment.length > 0, `${source} has no Environment section:\n${help}`);
      for (const line of environment) assert.match(line, /^(?:CSAFE_[A-Z_]+|NO_COLOR|FORCE_COLOR|COLUMNS|TERM|CI|NODE_DISABLE_COMPILE_CACHE) {2,}\S/, `${source}: ${line}`);
    });
  }

  it('csafe --help lists every variable any command reads', () => {
    const named = (help: string) => helpEnvironment(help).map((line) => line.split(' ')[0]!);
    const root = named(helps.find((help) => help.source === 'csafe --help')!.help);
    const missing = [...new Set(leaves.flatMap((leaf) => named(leaf.help)))].filter((name) => !root.includes(name));
    assert.deepEqual(missing, []);
  });

  it('csafe --help lists every variable the code reads', () => {
    // Not for users to set: a test hook, the bases of the default paths the man page's FILES gives
    // (the config directory's as conf finds it, core/config/profile-file.ts), and Node's own
    // settings, which the code cache is kept for and skipped under (src/cached-bundle.ts), and
    // conf's SNAP, unset while it writes the config file (core/config/store.ts).
    const unlisted = new Set(['CSAFE_FORCE_TTY', 'XDG_STATE_HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'APPDATA', 'NODE_OPTIONS', 'NODE_V8_COVERAGE', 'SNAP']);
    const sources = readdirSync(new URL('../../../src/', import.meta.url), { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'));
    const read = new Set(sources.flatMap((path) => [...repoFile(`src/${path}`).matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!)));
    const root = helpEnvironment(helps.find((help) => help.source === 'csafe --help')!.help).map((line) => line.split(' ')[0]!);
    assert.deepEqual([...read].filter((name) => !unlisted.has(name) && !root.includes(name)), []);
  });

  it('the man pages\' EXAMPLES give one example of every command, as its --help writes it', () => {
    const man = manExamples();
    const missing = leaves.filter((leaf) => !helpExamples(leaf.help).some((example) => man.includes(example))).map((leaf) => leaf.source);
    assert.deepEqual(missing, []);
  });
});
