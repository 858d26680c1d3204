import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { tempDir } from './helpers/cli.js';

const CACHED_BUNDLE = pathToFileURL(join(import.meta.dirname, '../src/cached-bundle.js')).href;

/** A bundle as scripts/bundle.mjs shapes it: a function of CommonJS's arguments whose launch() writes its arguments and where it runs from (to $LAUNCHED). */
const BUNDLE = `(function (exports, require, module, __filename, __dirname) { 'use strict';
  const { writeFileSync } = require('node:fs');
  module.exports.launch = async (args) => writeFileSync(process.env.LAUNCHED, JSON.stringify({ args, filename: __filename, dirname: __dirname, big: ${JSON.stringify('x'.repeat(2000))}.length }));
})`;

/** The commands the bundle is told it has, as scripts/bundle.mjs tells bin/csafe. */
const COMMANDS = ['data', 'data add', 'data import', 'classify'];

/**
 * Runs the bundle at `bundle` as bin/csafe does, in a process of its own (the cache is written as
 * it exits), with `args`.
 */
function run(bundle: string, env: Record<string, string>, args: string[] = ['b']): Promise<{ code: number | null; stderr: string; launched: { args: string[]; filename: string; dirname: string } }> {
  const out = join(tempDir(), 'launched.json');
  // The same program every time: Node's options (-e and its text among them) name the cache.
  const program = `import(process.env.CACHED_BUNDLE).then(({ runBundle }) => runBundle(process.env.BUNDLE, JSON.parse(process.env.ARGS), process.env, ${JSON.stringify(COMMANDS)}))`;
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
    // data add, data import, classify, and one for what names no command first (a flag, a typo).
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
