// How bin/csafe runs the bundle (dist/bundle/csafe.cjs, a function of CommonJS's arguments): compiled
// with V8's code cache, kept between runs in the user's cache directory. Node 20 keeps no compiled
// code between runs, and started its ES module loader for the bundle's chunks: one `classify`
// against an emulator took 128 ms, 90 this way (`node -e 0`: 23 ms). Node's builtins are taken
// when first called, so that bin/csafe's quick answers (src/quick.ts, bundled with this) load none.
import { fnv1a } from './core/files/short-digest.js';
import { setHttpV8Flags } from './core/http/v8-flags.js';
import { makeDirectorySync } from './core/files/make-directory.js';

/**
 * What scripts/bundle.mjs writes into quick.cjs with esbuild's define (not defined elsewhere): the
 * words naming each group and command (`data`, `data add` …), the global flags that take a value
 * (so `--profile data classify` runs `classify`), and the bundle's build: a digest of its text.
 */
declare const CSAFE_COMMAND_PATHS: readonly string[];
declare const CSAFE_GLOBAL_VALUE_FLAGS: readonly string[];
declare const CSAFE_BUNDLE_DIGEST: string;

/** What the bundle was built with, as bin/csafe is told it; a test gives its own. */
export interface BundleFacts {
  commands: readonly string[];
  globalValueFlags: readonly string[];
  /** Names the build: two builds of one size and time (a tarball's fixed dates) still differ by it. */
  digest: string;
}

const BUNDLED: BundleFacts = {
  commands: typeof CSAFE_COMMAND_PATHS === 'undefined' ? [] : CSAFE_COMMAND_PATHS,
  globalValueFlags: typeof CSAFE_GLOBAL_VALUE_FLAGS === 'undefined' ? [] : CSAFE_GLOBAL_VALUE_FLAGS,
  digest: typeof CSAFE_BUNDLE_DIGEST === 'undefined' ? '' : CSAFE_BUNDLE_DIGEST,
};

/** The bundle's entry: src/launcher.ts. */
interface Launcher {
  launch(args: string[]): Promise<void>;
}

/**
 * Runs `launch(args)` of the bundle at `bundlePath`. With no usable cache (the first run, another
 * Node, a new build), the script is compiled from its text, and its cache is written as the
 * process exits, holding what this run compiled: only when the run succeeded (a failed one, a
 * usage error, compiled little, and V8 would take its cache from then on) and the bundle is the
 * one it started from. NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch for its compile cache)
 * turns it off, as does NODE_V8_COVERAGE: V8 counts nothing in cached code. Each command named by
 * `bundle.commands` has a cache of its own.
 */
export function runBundle(bundlePath: string, args: string[], env: NodeJS.ProcessEnv = process.env, bundle: BundleFacts = BUNDLED): Promise<void> {
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const { Script } = process.getBuiltinModule('node:vm');
  const { createRequire } = process.getBuiltinModule('node:module');
  const { dirname } = process.getBuiltinModule('node:path');
  const { pathToFileURL } = process.getBuiltinModule('node:url');
  // Flags the bundle sets as it runs, set first: V8 rejects a cache made under other flags.
  setHttpV8Flags();
  // V8 checks a cache's version, flags and source, but its bytes only when told to: a damaged cache
  // (a bad disk, a foreign write) crashed every run that took it (measured: a segmentation fault,
  // or a V8 fatal error). With the checksum V8 writes into each cache, one that fails is refused,
  // compiled without and written again, at the cost of checking 1 MB natively.
  process.getBuiltinModule('node:v8').setFlagsFromString('--verify-snapshot-checksum');
  const cache = env.NODE_DISABLE_COMPILE_CACHE === '1' || env.NODE_V8_COVERAGE !== undefined ? undefined : cacheFile(bundlePath, commandOf(args, bundle.commands, bundle.globalValueFlags), bundle.digest, env);
  const cachedData = cache === undefined ? undefined : readCache(cache.path);
  const script = new Script(readFileSync(bundlePath, 'utf8'), { filename: pathToFileURL(bundlePath).href, cachedData });
  if (cache !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once('exit', (code) => {
      if (code === 0 && buildName(bundle.digest, bundlePath) === cache.build) writeCache(cache, script.createCachedData());
    });
  }
  const module = { exports: {} as Partial<Launcher> };
  const wrapper = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  wrapper(module.exports, createRequire(bundlePath), module, bundlePath, dirname(bundlePath));
  return module.exports.launch!(args);
}

/**
 * The command a command line runs, by the words naming it: the longest run of its first words,
 * global flags and their values passed over (commander takes them anywhere), that names one of
 * `commands`; '' when none does (a typo, no command).
 */
export function commandOf(args: readonly string[], commands: readonly string[], globalValueFlags: readonly string[] = []): string {
  let command = '';
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') break;
    if (word.startsWith('-')) {
      if (globalValueFlags.includes(word)) i++;
      continue;
    }
    const longer = command === '' ? word : `${command} ${word}`;
    if (!commands.includes(longer)) break;
    command = longer;
  }
  return command;
}

/** Where a bundle's cache is kept, and under which name. */
interface CacheFile {
  path: string;
  /** The name's start shared by every cache of this install, Node and options, of any build. */
  install: string;
  /** What follows `install` in the names of this build's caches. */
  build: string;
}

/**
 * Where the cache of this bundle for this command, Node and options is: a file per install (the
 * bundle's path), Node release, options, build (the digest of the bundle's text that bundle.mjs
 * wrote, and the bundle's size and time: V8 checks only a source's length, so a bundle of another
 * text but one length and time, as tarballs' fixed dates give, would run the other's cached code)
 * and command, so that two of them never take turns replacing one file. V8 keeps in a cache the
 * functions the run that wrote it compiled, and compiles any other anew at every run that takes
 * it. With one cache for all, the last process to exit without one wrote it: often the emulator,
 * whose cache then served every command. A `data import` of a small file took 156 ms (140 ms of
 * CPU) with the cache of an emulator that had served one classification, 147 ms (130) with its
 * own: medians of 24 runs, interleaved. The price is a file of about 1 MB for each command a user runs.
 */
function cacheFile(bundlePath: string, command: string, digest: string, env: NodeJS.ProcessEnv): CacheFile | undefined {
  const { homedir } = process.getBuiltinModule('node:os');
  const { join } = process.getBuiltinModule('node:path');
  try {
    const options = `${process.execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`;
    const install = [fnv1a(bundlePath).toString(36), process.version, process.arch, fnv1a(options).toString(36), ''].join('-');
    const build = buildName(digest, bundlePath);
    if (build === undefined) return undefined;
    const name = `${install}${build}${fnv1a(command).toString(36)}.bin`;
    return { path: join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'csafe', 'code-cache', name), install, build };
  } catch {
    // No home directory to find a cache in, or no bundle: every run compiles.
    return undefined;
  }
}

/** The build, as its caches' names hold it: another at exit means a new build landed while this one ran, whose caches are not to be removed. */
function buildName(digest: string, bundlePath: string): string | undefined {
  try {
    const bundle = process.getBuiltinModule('node:fs').statSync(bundlePath);
    return `${digest}-${bundle.size}-${Math.trunc(bundle.mtimeMs)}-`;
  } catch {
    return undefined;
  }
}

/** Far more than a cache of all of csafe (some 3 MB): anything bigger at the cache's place is not one of ours. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The cache, when a regular file of ours is at its place. Opened without following a symlink and
 * without waiting on a FIFO (a read of one would hang the command), and read only once it is known
 * to be a file of bounded size (a symlink to /dev/zero was read until memory ran out).
 */
function readCache(path: string): Buffer | undefined {
  const { closeSync, constants, fstatSync, openSync, readSync } = process.getBuiltinModule('node:fs');
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    const { size } = stats;
    if (!stats.isFile() || size > MAX_CACHE_BYTES) return undefined;
    const data = Buffer.allocUnsafe(size);
    let read = 0;
    for (let got = -1; read < size && got !== 0; read += got) got = readSync(fd, data, read, size - read, read);
    return read === size ? data : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const PARTIAL_NAME = /\.bin\.[\w-]+\.partial$/;
/** A partial file older than this was left by a run killed mid-write: no run takes that long to write a cache. */
const PARTIAL_KEPT_MS = 60_000;
/** A cache not written for this long is removed by the next run that writes one: a Node, an option or an install no longer used leaves nothing behind for good. */
const CACHE_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Written whole beside its place, then renamed into it: a run killed mid-write leaves no half a
 * cache, and runs that write at once leave one of theirs. Only a file is replaced (a symlink or
 * anything else found in its place is left as it is). Then the directory, csafe's own, is tidied:
 * the caches of other builds of this install go, of every command (an upgrade leaves no megabyte
 * behind); so do partial files runs killed mid-write left, and caches of any install not written
 * for a month (a cache in use is then written again by its next run). Only regular files named as
 * csafe names them are removed. A cache that cannot be written (a read-only home) is done without:
 * it only saves time.
 */
function writeCache({ path, install, build }: CacheFile, data: Buffer): void {
  const { closeSync, lstatSync, openSync, readdirSync, renameSync, rmSync, writeSync } = process.getBuiltinModule('node:fs');
  const { dirname, join } = process.getBuiltinModule('node:path');
  // Not the pid alone: where pids repeat (a container's node is pid 1), a partial file a killed run left would block every later write.
  const partial = `${path}.${process.pid}-${Math.random().toString(36).slice(2)}.partial`;
  let made = false;
  try {
    makeDirectorySync(dirname(path), 0o700);
    if (lstatSync(path, { throwIfNoEntry: false })?.isFile() === false) return;
    const fd = openSync(partial, 'wx', 0o600);
    made = true;
    try {
      for (let written = 0; written < data.length; ) written += writeSync(fd, data, written);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path);
    made = false;
    const now = Date.now();
    for (const name of readdirSync(dirname(path))) {
      const other = join(dirname(path), name);
      const stats = lstatSync(other, { throwIfNoEntry: false });
      if (stats?.isFile() !== true) continue;
      const otherBuild = name.startsWith(install) && name.endsWith('.bin') && !name.startsWith(`${install}${build}`);
      const leftPartial = PARTIAL_NAME.test(name) && now - stats.mtimeMs > PARTIAL_KEPT_MS;
      const unused = name.endsWith('.bin') && now - stats.mtimeMs > CACHE_KEPT_MS;
      if (otherBuild || leftPartial || unused) rmSync(other, { force: true });
    }
  } catch {
    if (made) rmSync(partial, { force: true });
  }
}
