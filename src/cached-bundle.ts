// How bin/csafe runs the bundle (dist/bundle/csafe.cjs, a function of CommonJS's arguments): compiled
// with V8's code cache, kept between runs in the user's cache directory. Node 20 keeps no compiled
// code between runs, and started its ES module loader for the bundle's chunks: one `classify`
// against an emulator took 128 ms, 90 this way (`node -e 0`: 23 ms). Node's builtins are taken
// when first called, so that bin/csafe's quick answers (src/quick.ts, bundled with this) load none.
import { fnv1a } from './core/files/short-digest.js';
import { setHttpV8Flags } from './core/http/v8-flags.js';

/**
 * The words naming each group and command (`data`, `data add` …), written into quick.cjs by
 * scripts/bundle.mjs with esbuild's define; not defined elsewhere.
 */
declare const CSAFE_COMMAND_PATHS: readonly string[];
const bundledCommands: readonly string[] = typeof CSAFE_COMMAND_PATHS === 'undefined' ? [] : CSAFE_COMMAND_PATHS;

/** The bundle's entry: src/launcher.ts. */
interface Launcher {
  launch(args: string[]): Promise<void>;
}

/**
 * Runs `launch(args)` of the bundle at `bundlePath`. With no usable cache (the first run, another
 * Node, a new build), the script is compiled from its text, and its cache is written as the
 * process exits, holding what this run compiled. NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch
 * for its compile cache) turns it off, as does NODE_V8_COVERAGE: V8 counts nothing in cached code.
 * `commands` are the words naming csafe's commands, each of which has a cache of its own.
 */
export function runBundle(bundlePath: string, args: string[], env: NodeJS.ProcessEnv = process.env, commands: readonly string[] = bundledCommands): Promise<void> {
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
  const cache = env.NODE_DISABLE_COMPILE_CACHE === '1' || env.NODE_V8_COVERAGE !== undefined ? undefined : cacheFile(bundlePath, commandOf(args, commands), env);
  const cachedData = cache === undefined ? undefined : readCache(cache.path);
  const script = new Script(readFileSync(bundlePath, 'utf8'), { filename: pathToFileURL(bundlePath).href, cachedData });
  if (cache !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once('exit', () => writeCache(cache, script.createCachedData()));
  }
  const module = { exports: {} as Partial<Launcher> };
  const wrapper = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  wrapper(module.exports, createRequire(bundlePath), module, bundlePath, dirname(bundlePath));
  return module.exports.launch!(args);
}

/**
 * The command a command line runs, by the words naming it: the longest run of its first words
 * that names one of `commands`; '' when none does (a global flag first, a typo).
 */
export function commandOf(args: readonly string[], commands: readonly string[]): string {
  let command = '';
  for (const word of args) {
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
 * bundle's path), Node release, options, build (the bundle's size and time) and command, so that
 * two of them never take turns replacing one file. V8 keeps in a cache the functions the run that
 * wrote it compiled, and compiles any other anew at every run that takes it. With one cache for
 * all, the last process to exit without one wrote it: often the emulator, whose cache then served
 * every command. A `data import` of a small file took 156 ms (140 ms of CPU) with the cache of an
 * emulator that had served one classification, 147 ms (130) with its own: medians of 24 runs,
 * interleaved. The price is a file of about 1 MB for each command a user runs.
 */
function cacheFile(bundlePath: string, command: string, env: NodeJS.ProcessEnv): CacheFile | undefined {
  const { statSync } = process.getBuiltinModule('node:fs');
  const { homedir } = process.getBuiltinModule('node:os');
  const { join } = process.getBuiltinModule('node:path');
  try {
    const bundle = statSync(bundlePath);
    const options = `${process.execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`;
    const install = [fnv1a(bundlePath).toString(36), process.version, process.arch, fnv1a(options).toString(36), ''].join('-');
    const build = `${bundle.size}-${Math.trunc(bundle.mtimeMs)}-`;
    const name = `${install}${build}${fnv1a(command).toString(36)}.bin`;
    return { path: join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'csafe', 'code-cache', name), install, build };
  } catch {
    // No home directory to find a cache in: every run compiles.
    return undefined;
  }
}

function readCache(path: string): Buffer | undefined {
  try {
    return process.getBuiltinModule('node:fs').readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Written whole beside its place, then renamed into it: a run killed mid-write leaves no half a
 * cache, and runs that write at once leave one of theirs. Only a file is replaced (a symlink or
 * anything else found in its place is left as it is), and only a partial file this run made is
 * removed. The caches of earlier builds of this install go, of every command: an upgrade leaves no
 * megabyte behind.
 * A cache that cannot be written (a read-only home) is done without: it only saves time.
 */
function writeCache({ path, install, build }: CacheFile, data: Buffer): void {
  const { closeSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } = process.getBuiltinModule('node:fs');
  const { dirname, join } = process.getBuiltinModule('node:path');
  const partial = `${path}.${process.pid}.partial`;
  let made = false;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (lstatSync(path, { throwIfNoEntry: false })?.isFile() === false) return;
    const fd = openSync(partial, 'wx', 0o600);
    made = true;
    try {
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, path);
    const earlier = readdirSync(dirname(path)).filter((name) => name.startsWith(install) && name.endsWith('.bin') && !name.startsWith(`${install}${build}`));
    for (const name of earlier) {
      if (lstatSync(join(dirname(path), name)).isFile()) rmSync(join(dirname(path), name));
    }
  } catch {
    if (made) rmSync(partial, { force: true });
  }
}

