import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { walkTree } from '../../src/commands/declaration.js';
import { TREE } from '../../src/commands/tree.js';
import { bundleScripts } from '../helpers/call-sites.js';
import { runCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// What help and version must not pay for: each is run only by the commands that use it.
const HEAVY = ['zod', 'chalk', 'conf', 'undici', 'cli-table3', 'ora', 'csv-parse'];
const HOOK = pathToFileURL(join(import.meta.dirname, '../helpers/module-log.js')).href;

/** esbuild's account of dist/bundle (scripts/bundle.mjs): the modules that went into each file. */
const BUNDLE = JSON.parse(readFileSync(join(import.meta.dirname, '../../bundle.meta.json'), 'utf8')) as {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
};
const packageOf = (path: string) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];

/** The files `csafe …args` required, as URLs, then Node's own modules as `builtin:` lines (test/helpers/module-log.ts). */
async function filesLoaded(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const log = join(tempDir(), 'modules.txt');
  const result = await runCsafe(args, { env: { ...env, NODE_OPTIONS: `--import=${HOOK}`, CSAFE_MODULE_LOG: log } });
  assert.equal(result.code, 0, result.stderr);
  return readFileSync(log, 'utf8').split('\n');
}

/**
 * The modules of the bundle whose code `csafe …args` ran, by their paths: esbuild wraps each
 * module imported by another in a function named by its path, run when the module is first
 * imported, and V8's coverage counts the calls of each.
 */
async function modulesRun(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const functions = (await scriptsRun(args, env)).flatMap((script) => script.functions);
  return functions.filter(({ functionName, ranges }) => /^(?:dist\/src|node_modules)\//.test(functionName) && ranges[0]!.count > 0).map(({ functionName }) => functionName);
}

/** V8's coverage of the scripts of dist/bundle that `csafe …args` ran (the bundle is read, not required: the module log cannot see it). */
async function scriptsRun(args: string[], env: Record<string, string> = {}) {
  const coverage = mkdtempSync(join(tempDir(), 'coverage-'));
  const result = await runCsafe(args, { env: { ...env, NODE_V8_COVERAGE: coverage } });
  assert.equal(result.code, 0, result.stderr);
  return bundleScripts(coverage);
}

/** The packages whose code ran. */
const packagesOf = (modules: string[]): string[] => [...new Set(modules.map(packageOf).filter((name) => name !== undefined))].sort();

describe('start-up of help and version', () => {
  // `--version` is answered before the bundle is read (below).
  const commands = [
    ['version'],
    ['--help'],
    [],
    ['help', 'data', 'add'],
    ...['classify', 'token', 'auth', 'config', 'settings', 'data', 'import', 'events', 'stream', 'decision', 'batch', 'emulator'].map((group) => [group, '--help']),
    ['data', 'add', '--help'],
    ['events', 'send', '--help'],
    ['stream', 'parts', '--help'],
    ['batch', 'create', '--help'],
  ];
  for (const args of commands) {
    // COLUMNS set: main() answers, as on a terminal (into a pipe, bin/csafe prints help made at build time, below).
    it(`csafe ${args.join(' ')} runs none of ${HEAVY.join(', ')}`, async () => {
      const modules = await modulesRun(args, { COLUMNS: '80' });
      assert.ok(modules.includes('dist/src/main.js'), 'the coverage names the modules csafe ran');
      assert.deepEqual(packagesOf(modules).filter((name) => HEAVY.includes(name)), []);
    });
  }
});

describe('answers bin/csafe gives before loading the bundle (src/quick.ts)', () => {
  /** The files of csafe a run loaded, relative to the checkout. */
  const csafeFiles = async (args: string[]) => {
    const files = (await filesLoaded(args)).filter((url) => url.startsWith('file:') && !url.includes('/test/helpers/'));
    // With hooks registered, Node resolves the main script through them too: it may be named twice.
    return [...new Set(files.map((url) => url.replace(/^.*\/(bin|dist)\//, '$1/')))].sort();
  };

  for (const args of [['--version'], ['classify', '--help'], ['--help']]) {
    it(`csafe ${args.join(' ')} into a pipe loads bin/csafe and dist/bundle/quick.cjs alone: not the bundle`, async () => {
      assert.deepEqual(await csafeFiles(args), ['bin/csafe', 'dist/bundle/quick.cjs']);
      const scripts = (await scriptsRun(args)).map((script) => script.url.replace(/^.*\/dist\/bundle\//, ''));
      assert.deepEqual(scripts, ['quick.cjs'], 'the bundle was not run');
    });
  }

  it("every command's --help into a pipe, made at build time, is what main() prints there", async () => {
    for (const words of [[], ...Array.from(walkTree(TREE), ({ path }) => [...path])]) {
      const [fromBin, live] = await Promise.all([runCsafe([...words, '--help']), runInProcess([...words, '--help'])]);
      assert.equal(fromBin.code, 0, fromBin.stderr);
      assert.equal(live.code, 0, live.stderr);
      assert.equal(fromBin.stdout, live.stdout, `csafe ${words.join(' ')} --help`);
      assert.equal(fromBin.stderr, '');
    }
  });

  it('on a width of its own (COLUMNS) main() answers, fitting it', async () => {
    const env = { COLUMNS: '60' };
    const [narrow, live, piped] = await Promise.all([runCsafe(['classify', '--help'], { env }), runInProcess(['classify', '--help'], { env }), runCsafe(['classify', '--help'])]);
    assert.equal(narrow.code, 0, narrow.stderr);
    assert.equal(narrow.stdout, live.stdout);
    assert.notEqual(narrow.stdout, piped.stdout);
  });
});

describe('start-up of one classification', () => {
  const emulator = useEmulatorProcess();
  const classify = ['classify', '--text', 'hi', '--user-id', 'u1'];

  it('each command keeps a code cache of its own, written by its first run and taken by the next: V8 refuses a cache made under other flags', async () => {
    const env = { ...emulator.env, XDG_CACHE_HOME: tempDir() };
    const cacheDir = join(env.XDG_CACHE_HOME, 'csafe', 'code-cache');
    const commands = [classify, ['version'], ['config', 'list']];
    const written: { name: string; ino: number }[] = [];
    for (const args of commands) {
      const result = await runCsafe(args, { env });
      assert.equal(result.code, 0, result.stderr);
      const [cache, ...others] = readdirSync(cacheDir).filter((name) => !written.some((earlier) => earlier.name === name));
      assert.deepEqual(others, [], `csafe ${args.join(' ')} wrote one cache`);
      written.push({ name: cache!, ino: statSync(join(cacheDir, cache!)).ino });
    }
    for (const args of commands) {
      const result = await runCsafe(args, { env });
      assert.equal(result.code, 0, result.stderr);
    }
    // A refused cache would have been written again, by a rename: another inode.
    assert.deepEqual(readdirSync(cacheDir).sort(), written.map(({ name }) => name).sort());
    for (const { name, ino } of written) assert.equal(statSync(join(cacheDir, name)).ino, ino, name);
  });

  it('csafe classify --text hi, JSON to a pipe, runs commander, zod and undici only: no conf to read a profile, no chalk, tables or spinners', async () => {
    assert.deepEqual(packagesOf(await modulesRun(classify, emulator.env)), ['commander', 'undici', 'zod']);
  });

  it('requires no file but bin/csafe and dist/bundle/quick.cjs (which runs dist/bundle/csafe.cjs): none of tsc\'s output, of node_modules or of a chunk', async () => {
    const lines = await filesLoaded(classify, emulator.env);
    const files = lines.filter((url) => url.startsWith('file:') && !url.includes('/test/helpers/'));
    assert.deepEqual([...new Set(files.map((url) => url.replace(/^.*\/(bin|dist)\//, '$1/')))].sort(), ['bin/csafe', 'dist/bundle/quick.cjs']);
  });

  it("takes undici's Agent and request() from their own files: its index would load Node's bundled undici too", async () => {
    const modules = await modulesRun(classify, emulator.env);
    assert.ok(modules.includes('node_modules/undici/lib/dispatcher/agent.js'), 'the coverage names the modules of undici run');
    assert.deepEqual(modules.filter((module) => module.startsWith('node_modules/undici/index')), []);
    const builtins = (await filesLoaded(classify, emulator.env)).filter((line) => line.startsWith('builtin:'));
    assert.ok(builtins.includes('builtin:vm'), 'the log names the builtins loaded');
    assert.deepEqual(builtins.filter((line) => line.includes('undici')), []);
  });

  it('loads no builtin it does not use: HTTP/2 (undici), child processes (commander), TLS and crypto (for an http:// service)', async () => {
    const builtins = (await filesLoaded(classify, emulator.env)).filter((line) => line.startsWith('builtin:'));
    assert.ok(builtins.includes('builtin:http'), 'the log names the builtins loaded');
    const unused = ['http2', 'child_process', 'https', 'tls', 'crypto'].map((name) => `builtin:${name}`);
    assert.deepEqual(builtins.filter((line) => unused.includes(line)), []);
  });

  it('data add, which keeps its objects in a spool, loads no crypto without --checkpoint (the spool is named without it)', async () => {
    const objects = join(tempDir(), 'objects.jsonl');
    writeFileSync(objects, '{"id":"a"}\n{"id":"b"}\n');
    const builtins = (await filesLoaded(['data', 'add', 'listings', objects], emulator.env)).filter((line) => line.startsWith('builtin:'));
    assert.ok(builtins.includes('builtin:http'), 'the log names the builtins loaded');
    assert.deepEqual(builtins.filter((line) => line === 'builtin:crypto'), []);
  });

  it("leaves undici's WebAssembly parser to Liftoff: the process would wait at exit for a TurboFan compile of it", async () => {
    // V8 prints a line for each function of the parser it compiles, naming the compiler.
    const traced = ['/bin/sh', '-c', 'exec "$0" --trace-wasm-compilation-times "$@"'];
    const result = await runCsafe(classify, { env: emulator.env, wrapper: traced });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /using Liftoff/);
    assert.doesNotMatch(result.stdout, /using TurboFan/);
  });

  it("bundles zod's English messages alone: `import * as z` lets esbuild leave out the other locales", () => {
    const inputs = Object.values(BUNDLE.outputs).flatMap((output) => Object.entries(output.inputs));
    assert.ok(inputs.some(([input]) => input.endsWith('/zod/v4/locales/en.js')));
    // The locales' index stays, as a namespace with nothing in it (some 70 bytes).
    const others = inputs.filter(([input, { bytesInOutput }]) => /\/zod\/v4\/locales\/(?!en\.js)/.test(input) && bytesInOutput > 100);
    assert.deepEqual(others.map(([input]) => input), []);
  });
});

// Node 20.18 (the oldest csafe supports) cannot require() an ES module; 20.19+ can unless told not to.
describe('colour without require() of ES modules (as on Node 20.18)', () => {
  const node2018 = { NODE_OPTIONS: '--no-experimental-require-module' };

  it('an error line is red with FORCE_COLOR=1', async () => {
    const result = await runCsafe(['classify', '--text', 'hi', '--request-timeout', '0'], { env: { ...node2018, FORCE_COLOR: '1' } });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^\u001b\[31merror: --request-timeout: .*\u001b\[39m$/m);
  });

  it('a table header is bold with CSAFE_FORCE_TTY=1', async () => {
    const env = { ...node2018, CSAFE_FORCE_TTY: '1', CSAFE_EMULATOR_DATA_DIR: tempDir() };
    const result = await runCsafe(['--emulator', 'classify', '--text', 'hi', '--user-id', 'u1'], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\u001b\[1mLABEL\u001b\[22m/);
  });
});
