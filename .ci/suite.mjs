// `npm test` after the build: node's test runner over the compiled test/**/*.test.ts except the
// soak tests of test/soak and the fault, crash and interrupt tests of test/reliability (`--soak`,
// `--reliability`: only those, the soak with test/fuzz again at its full size; or the files
// given) and those only `npm run test:matrix` runs (MATRIX_ONLY) — the sources say which, so a
// test deleted since the last build or a helper module is never run as a test — with a
// temporary directory of its own (TMPDIR) that must be empty when the runner ends. Every test
// removes what it creates, also when it fails; whatever one leaves behind fails the run here,
// listed by name, and is removed so nothing accumulates on the machine.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const SHOWN = 20;
/**
 * Node 20's --test-timeout bounds each test file as a whole (the test helpers bound each command
 * and wait inside it, naming it): a file that overruns it is ended and fails, so nothing hangs the
 * run. The slowest file takes under a minute alone, but two minutes and more when the machine's two
 * cores are shared by several suites; the soak files take longer.
 */
const FILE_TIMEOUT_MS = { suite: 300_000, reliability: 600_000, soak: 900_000 };
/** Files at once: most of a file's time is spent waiting on the child processes it runs, not computing. */
const CONCURRENCY = process.env.CSAFE_TEST_CONCURRENCY ?? '4';
/**
 * Files only scripts/test-matrix.mjs runs: binary.test builds the single executable, some 10 s of a
 * machine's two cores; package.test installs the packed package with npm, which fetches the
 * package's dependencies' metadata from the registry (none is in the cache `npm ci` fills), so it
 * needs the network and waits on it: on one new machine npm hung until the test's 2 minutes ran
 * out. Without them `npm test` runs offline.
 */
const MATRIX_ONLY = [join('e2e', 'binary.test.ts'), join('e2e', 'package.test.ts')];
/**
 * The tiers besides the suite, each a folder of test/ that `npm test` leaves out: minutes of CPU
 * that .ci/run spends after it (the soak at a fifth of its size), not on every run of the suite.
 */
const TIERS = { '--soak': 'soak', '--reliability': 'reliability' };
const tier = TIERS[process.argv[2]];
const tierOf = (path) => Object.values(TIERS).find((folder) => path.startsWith(`${folder}${sep}`));
/**
 * The property-based tests run in the suite on a thousand inputs a property, and again in the soak
 * tier on ten times as many (test/helpers/fuzz.ts), whatever CSAFE_SOAK_SCALE says.
 */
const FUZZ = `fuzz${sep}`;
const SOAK_FUZZ_RUNS = '10000';
const inTier = (path) => tierOf(path) === tier || (tier === 'soak' && path.startsWith(FUZZ));
const compiledTests = () =>
  readdirSync('test', { recursive: true })
    .filter((path) => path.endsWith('.test.ts') && inTier(path) && !MATRIX_ONLY.includes(path))
    .sort()
    .map((path) => join('dist', 'test', path.replace(/\.ts$/, '.js')));
const files = tier ? [] : process.argv.slice(2);
/**
 * `npm test`'s temporary directory is in memory (/dev/shm) where the machine has one with room
 * and TMPDIR names none: its tests make and remove thousands of files and directories, syncing
 * many as csafe's stores do, which on the 2-core machine's ext4 cost 10 s of system CPU and 6-7 s
 * of the run (two runs each, interleaved). At most MEMORY_NEEDED is in it at once; a container's
 * /dev/shm is often 64 MB, too small, so the run stays on disk there. The reliability tests
 * (killed writers, crashes) and the soak's gigabytes stay on disk too.
 */
const MEMORY = '/dev/shm';
const MEMORY_NEEDED = 2 * 1024 ** 3;
function roomInMemory() {
  try {
    accessSync(MEMORY, constants.W_OK);
    const { bavail, bsize } = statfsSync(MEMORY);
    return statSync(MEMORY).isDirectory() && bavail * bsize >= MEMORY_NEEDED;
  } catch {
    return false;
  }
}
const scratchParent = !tier && process.env.TMPDIR === undefined && roomInMemory() ? MEMORY : tmpdir();
const scratch = mkdtempSync(join(scratchParent, 'csafe-suite-'));
/**
 * Folders of tests that start no process and leave the process as they found it (unit tests, and
 * command tests that run main() in process): the files of each folder run in one process, one after
 * another, not in a process each. A process a file loaded the same hundreds of compiled modules
 * again for each file: some 0.3 s of CPU a unit test file and 1 s a command test file, most of what
 * those files cost. A failing test is still named, with the line of its own file.
 */
const SHARED_PROCESS = ['emulator', 'core', 'commands', 'schemas', 'api'];
/** The shared folder whose process takes longest (some 45 s), started before all others. */
const LONGEST_SHARED = 'emulator';
/**
 * The end-to-end files share processes too, several to a process (E2E_PROCESSES in all), which
 * saves 0.3 s of CPU a file on the suite's two busy cores. A file that moves the process's
 * directory (process.chdir) runs alone, as the files sharing its process would run from there.
 * So do the slowest, mostly waiting on the processes they start: 7-30 s each, so a process of
 * several of them would end long after the others.
 */
const E2E_PROCESSES = 6;
const SLOW_E2E = ['examples', 'stream-follow', 'batch', 'webhooks', 'data-import', 'data', 'records', 'progress', 'bad-responses'];
const groups = mkdtempSync(join(tmpdir(), 'csafe-suite-groups-'));
/**
 * The processes' entries, numbered in the order they are to start (the runner starts files in the
 * order of their paths): the longest first, so that none of them starts last and ends the run long
 * after the rest.
 */
function sharingProcesses(compiled) {
  const folderOf = (file) => relative(join('dist', 'test'), file).split(sep)[0];
  const nameOf = (file) => relative(join('dist', 'test', 'e2e'), file).replace(/\.test\.js$/, '');
  const e2e = compiled.filter((file) => folderOf(file) === 'e2e' && !readFileSync(file, 'utf8').includes('process.chdir('));
  const slow = SLOW_E2E.map((name) => e2e.find((file) => nameOf(file) === name)).filter(Boolean);
  const shared = e2e.filter((file) => !slow.includes(file));
  const processes = [
    [LONGEST_SHARED, compiled.filter((file) => folderOf(file) === LONGEST_SHARED)],
    ...Array.from({ length: E2E_PROCESSES }, (_, k) => [`e2e-${k}`, shared.filter((_, i) => i % E2E_PROCESSES === k)]),
    ...slow.map((file) => [`e2e-${nameOf(file)}`, [file]]),
    ...SHARED_PROCESS.filter((folder) => folder !== LONGEST_SHARED).map((folder) => [folder, compiled.filter((file) => folderOf(file) === folder)]),
  ];
  const entries = processes.map(([name, members], index) => {
    const entry = join(groups, `${String(index).padStart(2, '0')}-${name}.test.mjs`);
    writeFileSync(entry, members.map((file) => `import ${JSON.stringify(pathToFileURL(resolve(file)).href)};\n`).join(''));
    return entry;
  });
  const inEntries = new Set(processes.flatMap(([, members]) => members));
  return [...entries, ...compiled.filter((file) => !inEntries.has(file))];
}
/**
 * No --test-force-exit: under process isolation it ends a file's process before the verdicts it
 * wrote have reached the runner (nodejs/node#64833), so a run reported a few dozen to 90 tests
 * fewer than it ran, and a failing test could go unnamed. A file kept alive by a handle left open
 * is ended by --test-timeout instead, and fails naming itself.
 */
const options = [`--test-concurrency=${CONCURRENCY}`, `--test-timeout=${FILE_TIMEOUT_MS[tier ?? 'suite']}`];
/**
 * No test talks TLS, and NODE_EXTRA_CA_CERTS (set on some machines) makes every node process parse
 * a certificate bundle as it starts: some 70 ms of CPU for each of the hundreds a run starts.
 */
const { NODE_EXTRA_CA_CERTS: _certificates, ...environment } = process.env;
/**
 * The tests run on the Node that runs this file, and so does whatever they start that looks for
 * `node` on PATH (csafe's `#!/usr/bin/env node`): npm puts node_modules/.bin first on PATH, and
 * there `node` is the Node 22 the matrix pins (scripts/test-matrix.mjs), so `npm test` (which starts
 * this file with the Node that runs npm, npm_node_execpath) would otherwise run csafe on that one.
 */
const thisNode = mkdtempSync(join(tmpdir(), 'csafe-suite-node-'));
symlinkSync(process.execPath, join(thisNode, 'node'));
const runner = spawn(process.execPath, ['--test', ...options, ...(files.length > 0 ? files : tier ? compiledTests() : sharingProcesses(compiledTests()))], {
  env: { ...environment, PATH: `${thisNode}${delimiter}${environment.PATH ?? ''}`, TMPDIR: scratch, ...(tier === 'soak' && { CSAFE_FUZZ_RUNS: environment.CSAFE_FUZZ_RUNS ?? SOAK_FUZZ_RUNS }) },
  stdio: 'inherit',
});
// Ctrl-C reaches the runner too (same process group); stay to clean up after it.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => runner.kill(signal));

runner.on('exit', (code, signal) => {
  rmSync(groups, { recursive: true, force: true });
  rmSync(thisNode, { recursive: true, force: true });
  const left = readdirSync(scratch);
  rmSync(scratch, { recursive: true, force: true });
  if (left.length > 0) {
    const more = left.length > SHOWN ? `, and ${left.length - SHOWN} more` : '';
    console.error(`npm test: the tests left ${left.length} entries in their temporary directory: ${left.slice(0, SHOWN).join(', ')}${more}`);
    console.error('npm test: a test must remove what it creates, also when it fails (tempDir() in test/helpers/cli.ts does)');
  }
  process.exitCode = code !== 0 ? (code ?? (signal === 'SIGINT' ? 130 : 1)) : left.length > 0 ? 1 : 0;
});
