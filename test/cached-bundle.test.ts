import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { tempDir } from './helpers/cli.js';

const CACHED_BUNDLE = pathToFileURL(join(import.meta.dirname, '../src/cached-bundle.js')).href;

/**
 * A bundle as scripts/bundle.mjs shapes it: a function of CommonJS's arguments whose launch()
 * writes its arguments and where it runs from (to $LAUNCHED); with $FAIL it ends with exit code 3,
 * and with $TOUCH_TO it gives its own file that time (a new build landing while it runs).
 */
const BUNDLE = `(function (exports, require, module, __filename, __dirname) { 'use strict';
  const { utimesSync, writeFileSync } = require('node:fs');
  module.exports.launch = async (args) => {
    writeFileSync(process.env.LAUNCHED, JSON.stringify({ args, filename: __filename, dirname: __dirname, big: ${JSON.stringify('x'.repeat(2000))}.length }));
    if (process.env.TOUCH_TO) utimesSync(__filename, new Date(), new Date(Number(process.env.TOUCH_TO)));
    if (process.env.FAIL) process.exitCode = 3;
  };
})`;

/** What the bundle is told of itself, as scripts/bundle.mjs tells bin/csafe; $DIGEST names another build. */
const COMMANDS = ['data', 'data add', 'data import', 'classify'];
const GLOBAL_VALUE_FLAGS = ['--profile', '-o', '--output'];

/**
 * Runs the bundle at `bundle` as bin/csafe does, in a process of its own (the cache is written as
 * it exits), with `args`.
 */
function run(bundle: string, env: Record<string, string>, args: string[] = ['b']): Promise<{ code: number | null; stderr: string; launched: { args: string[]; filename: string; dirname: string } }> {
  const out = join(tempDir(), 'launched.json');
  // The same program every time: Node's options (-e and its text among them) name the cache.
  const facts = `{ commands: ${JSON.stringify(COMMANDS)}, globalValueFlags: ${JSON.stringify(GLOBAL_VALUE_FLAGS)}, digest: process.env.DIGEST ?? 'd1' }`;
  const program = `import(process.env.CACHED_BUNDLE).then(({ runBundle }) => runBundle(process.env.BUNDLE, JSON.parse(process.env.ARGS), process.env, ${facts}))`;
  const child = spawn(process.execPath, ['-e', program], {
    env: { PATH: process.env.PATH, CACHED_BUNDLE, BUNDLE: bundle, ARGS: JSON.stringify(args), LAUNCHED: out, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stderr, launched: JSON.parse(readFileSync(out, 'utf8')) as never });
    }),
  );
}

function setUp() {
  const dir = tempDir();
  const bundle = join(dir, 'csafe.cjs');
  writeFileSync(bundle, BUNDLE);
  const cacheHome = join(dir, 'cache');
  const cacheDir = join(cacheHome, 'csafe', 'code-cache');
  const caches = () => (existsSync(cacheDir) ? readdirSync(cacheDir) : []);
  return { bundle, env: { XDG_CACHE_HOME: cacheHome }, cacheDir, caches };
}

describe('the code cache bin/csafe runs the bundle with (src/cached-bundle.ts)', () => {
  it('runs launch() with the arguments, and the bundle\'s path as __filename; writes the cache (0600 in a 0700 directory) and takes it the next time, writing nothing', async () => {
    const { bundle, env, cacheDir, caches } = setUp();
    const first = await run(bundle, env);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(first.launched.args, ['b']);
    assert.equal(first.launched.filename, bundle);
    assert.equal(caches().length, 1);
    const cache = join(cacheDir, caches()[0]!);
    assert.equal(statSync(cache).mode & 0o777, 0o600);
    assert.equal(statSync(cacheDir).mode & 0o777, 0o700);
    const written = statSync(cache);

    const second = await run(bundle, env);
    assert.equal(second.code, 0, second.stderr);
    // A cache V8 took is not written again; one it refused would be (below).
    assert.equal(statSync(cache).ino, written.ino);
    assert.equal(statSync(cache).mtimeMs, written.mtimeMs);
  });

  it('a cache V8 refuses (damaged) is written again, whole', async () => {
    const { bundle, env, cacheDir, caches } = setUp();
    await run(bundle, env);
    const cache = join(cacheDir, caches()[0]!);
    const good = readFileSync(cache);
    writeFileSync(cache, Buffer.alloc(good.length, 0x5a));
    const result = await run(bundle, env);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(readFileSync(cache).subarray(0, 16), good.subarray(0, 16));
    assert.deepEqual(caches(), [caches()[0]], 'no partial file left');
  });

  it("a cache damaged in its middle (which V8 would run, or crash on) fails V8's checksum and is written again", async () => {
    const { bundle, env, cacheDir, caches } = setUp();
    await run(bundle, env);
    const cache = join(cacheDir, caches()[0]!);
    const good = readFileSync(cache);
    const damaged = Buffer.from(good);
    for (let i = damaged.length >> 1; i < (damaged.length >> 1) + 8; i++) damaged[i]! ^= 0xff;
    writeFileSync(cache, damaged);
    const result = await run(bundle, env);
    assert.equal(result.code, 0, result.stderr);
    assert.notDeepEqual(readFileSync(cache), damaged);
    const taken = statSync(cache).ino;
    await run(bundle, env);
    assert.equal(statSync(cache).ino, taken, 'and taken the next time');
  });

  it('a new build gets a cache of its own, and the earlier build\'s goes', async () => {
    const { bundle, env, caches } = setUp();
    await run(bundle, env);
    const [earlier] = caches();
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    await run(bundle, env);
    assert.equal(caches().length, 1);
    assert.notEqual(caches()[0], earlier);
  });

  it('each command keeps a cache of its own, by the words naming it; a new build removes those of every command', async () => {
    const { bundle, env, caches } = setUp();
    for (const args of [['data', 'add', 'ns', 'a.jsonl'], ['data', 'add', 'other', 'b.jsonl'], ['data', 'import', 'ns', 'a.jsonl'], ['classify', '--text', 'hi'], ['--json', 'classify'], ['unknown', 'words']]) {
      const result = await run(bundle, env, args);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(result.launched.args, args);
    }
    // data add, data import, classify (`--json classify` too), and one for what names no command (a typo).
    assert.equal(caches().length, 4);
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    await run(bundle, env, ['classify']);
    assert.equal(caches().length, 1);
  });

  it('another place of install, or other Node options, keep caches of their own', async () => {
    const { bundle, env, caches } = setUp();
    const other = join(tempDir(), 'csafe.cjs');
    writeFileSync(other, BUNDLE);
    await run(bundle, env);
    await run(other, env);
    await run(bundle, { ...env, NODE_OPTIONS: '--max-old-space-size=300' });
    assert.equal(caches().length, 3);
  });

  it('leaves a symlink found in the cache\'s place as it was, and what it points to', async () => {
    const { bundle, env, cacheDir, caches } = setUp();
    await run(bundle, env);
    const name = caches()[0]!;
    const target = join(tempDir(), 'not-csafes.txt');
    writeFileSync(target, 'a file of the user\'s');
    const cache = join(cacheDir, name);
    rmSync(cache);
    symlinkSync(target, cache);
    const result = await run(bundle, env);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(lstatSync(cache).isSymbolicLink());
    assert.equal(readlinkSync(cache), target);
    assert.equal(readFileSync(target, 'utf8'), 'a file of the user\'s');
  });

  it('the command is found past global flags and their values, wherever they are; `--` ends the search', async () => {
    const { commandOf } = (await import(CACHED_BUNDLE)) as typeof import('../src/cached-bundle.js');
    const cases: [string[], string][] = [
      [['--json', 'data', 'add', 'ns'], 'data add'],
      [['data', '--json', 'add', 'ns'], 'data add'],
      [['--profile', 'data', 'classify', '--text', 'hi'], 'classify'],
      [['-o', 'json', 'data', 'import'], 'data import'],
      [['--output=json', 'classify'], 'classify'],
      [['--', 'data', 'add'], ''],
      [['unknown', 'data'], ''],
      [[], ''],
    ];
    for (const [args, command] of cases) assert.equal(commandOf(args, COMMANDS, GLOBAL_VALUE_FLAGS), command, args.join(' '));
  });

  it('another build of the same size and time (the fixed dates of a tarball) is told apart by its digest: the earlier one\'s cache goes', async () => {
    const { bundle, env, caches } = setUp();
    await run(bundle, env);
    const [first] = caches();
    await run(bundle, { ...env, DIGEST: 'd2' });
    assert.equal(caches().length, 1);
    assert.notEqual(caches()[0], first);
  });

  it('a run that fails writes no cache (it compiled little, and would be taken from then on); the next that succeeds does', async () => {
    const { bundle, env, caches } = setUp();
    assert.equal((await run(bundle, { ...env, FAIL: '1' })).code, 3);
    assert.deepEqual(caches(), []);
    assert.equal((await run(bundle, env)).code, 0);
    assert.equal(caches().length, 1);
  });

  it('a run whose bundle was replaced while it ran (a new build) writes nothing and removes nothing: the new build\'s caches stay', async () => {
    const { bundle, env, caches } = setUp();
    const result = await run(bundle, { ...env, TOUCH_TO: String(Date.now() + 5000) });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(caches(), [], 'the old build wrote no cache of the new one');
    await run(bundle, env);
    const [newBuilds] = caches();
    await run(bundle, { ...env, TOUCH_TO: String(Date.now() + 10_000), DIGEST: 'old' });
    assert.deepEqual(caches(), [newBuilds]);
  });

  it('a FIFO, or a symlink to /dev/zero, at the cache\'s place: the command runs without a cache, and leaves them as they were', async () => {
    for (const plant of ['fifo', 'symlink'] as const) {
      const { bundle, env, cacheDir, caches } = setUp();
      await run(bundle, env);
      const cache = join(cacheDir, caches()[0]!);
      rmSync(cache);
      if (plant === 'fifo') execFileSync('mkfifo', [cache]);
      else symlinkSync('/dev/zero', cache);
      const result = await run(bundle, env);
      assert.equal(result.code, 0, `${plant}: ${result.stderr}`);
      assert.ok(plant === 'fifo' ? lstatSync(cache).isFIFO() : lstatSync(cache).isSymbolicLink(), plant);
    }
  });

  it('tidies its directory as it writes: partial files a killed run left go after a minute, caches not written for a month go; nothing else', async () => {
    const { bundle, env, cacheDir, caches } = setUp();
    await run(bundle, env);
    const [cache] = caches();
    const plant = (name: string, ageMs: number, make = () => writeFileSync(join(cacheDir, name), 'x')) => {
      make();
      const when = new Date(Date.now() - ageMs);
      utimesSync(join(cacheDir, name), when, when);
    };
    const DAY = 24 * 60 * 60 * 1000;
    plant(`${cache}.123.partial`, 5 * 60_000);
    plant(`${cache}.456-ab12.partial`, 1000);
    plant('other-install-v22.0.0-x64-1-d1-1-1-0.bin', 31 * DAY);
    plant('other-install-v22.0.0-x64-1-d1-1-1-1.bin', 29 * DAY);
    plant('notes.txt', 365 * DAY);
    plant('old-dir.bin', 365 * DAY, () => mkdirSync(join(cacheDir, 'old-dir.bin')));
    // A new build: its write tidies the directory.
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    await run(bundle, env);
    const install = cache!.split('-d1-')[0]!;
    const ours = caches().filter((name) => name.startsWith(install) && name.endsWith('.bin'));
    assert.equal(ours.length, 1);
    assert.notEqual(ours[0], cache, 'the new build\'s cache, the earlier one gone');
    const left = caches().filter((name) => !ours.includes(name));
    assert.deepEqual(left.sort(), [`${cache}.456-ab12.partial`, 'notes.txt', 'old-dir.bin', 'other-install-v22.0.0-x64-1-d1-1-1-1.bin'].sort());
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 and NODE_V8_COVERAGE keep no cache; a cache directory that cannot be written is done without', async () => {
    const { bundle, env, caches, cacheDir } = setUp();
    assert.equal((await run(bundle, { ...env, NODE_DISABLE_COMPILE_CACHE: '1' })).code, 0);
    assert.equal((await run(bundle, { ...env, NODE_V8_COVERAGE: join(tempDir(), 'coverage') })).code, 0);
    assert.deepEqual(caches(), []);
    mkdirSync(cacheDir, { recursive: true });
    chmodSync(cacheDir, 0o500);
    try {
      const result = await run(bundle, env);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, '');
      if (process.getuid?.() !== 0) assert.deepEqual(caches(), []);
    } finally {
      chmodSync(cacheDir, 0o700);
    }
  });
});
