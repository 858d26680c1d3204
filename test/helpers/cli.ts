import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { assertNoSecret, SWEEP_API_KEY, SWEEP_WEBHOOK_SECRET, sweepDirectory } from './secrets.js';

/** The built launcher, run exactly as a user runs it. */
export const BIN = fileURLToPath(new URL('../../../bin/csafe', import.meta.url));

/**
 * bin/csafe runs dist/bundle, which `tsc -p .` alone leaves as it was: a test would run the code
 * of an earlier build. `npm run build` (or `npm test`) bundles after tsc (scripts/bundle.mjs).
 */
function assertBundleIsCurrent(): void {
  const modified = (path: string) => statSync(new URL(path, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const bundled = modified('../../bundle.meta.json');
  // No bundle at all (a tsc-only build, as mutation testing's) is for in-process tests, which need none.
  if (bundled > 0 && bundled < modified('../../.tsbuildinfo')) {
    throw new Error('dist/bundle is older than what tsc wrote: run `npm run build` (tsc, then scripts/bundle.mjs)');
  }
}
assertBundleIsCurrent();
export const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * How long a child the helpers run may take before it is killed and its test fails, naming the
 * command: far above any command of the suite on a loaded machine, far below the runner's bound
 * for a whole file (.ci/suite.mjs), so a hang is reported here, by command, not there.
 */
export const CHILD_TIMEOUT_MS = 60_000;
/** How long `csafe emulator start` may take to print its ready line, and to exit once told to. */
const EMULATOR_TIMEOUT_MS = 20_000;

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  /** A command csafe runs under, e.g. `/usr/bin/time -v -o stats.txt` to measure it from outside. */
  wrapper?: readonly string[];
  /** Kill the child and fail after this long (default CHILD_TIMEOUT_MS): a soak-sized run may need more. */
  timeoutMs?: number;
}

interface EndOptions {
  /** The command as the failure names it; by default the child's own command line. */
  what?: string;
  timeoutMs?: number;
}

/** Temporary directories of this test file that are still there; removed when its process exits, whatever the outcome. */
const tempDirs = new Set<string>();
/** Children of this test file still running; killed when its process exits, so a hung one outlives no test file. */
const liveChildren = new Set<ChildProcess>();
process.once('exit', () => {
  liveChildren.forEach((child) => child.kill('SIGKILL'));
  for (const dir of tempDirs) {
    try {
      removeTempDir(dir);
    } catch (error) {
      // Too late to fail a test: the file fails instead, saying why.
      console.error((error as Error).message);
      process.exitCode = 1;
    }
  }
});
// The runner ends a test file that overruns its bound with SIGTERM: exit, so the cleanup above runs.
process.once('SIGTERM', () => process.exit(143));

function removeTempDir(dir: string): void {
  try {
    sweepDirectory(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  }
}

/** A fresh directory under the system's temporary directory, removed when the test process exits. */
export function tempDir(prefix = 'csafe-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/**
 * An environment with nothing of the developer's own csafe setup leaking in, and the private
 * directories it made for this child (removed when the child exits).
 */
function cleanEnv(extra: Record<string, string | undefined>): { env: NodeJS.ProcessEnv; dirs: string[] } {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('CSAFE_') && !['NO_COLOR', 'FORCE_COLOR', 'CI'].includes(name)) env[name] = value;
  }
  // `csafe --emulator` keeps its data in the user's state directory unless told otherwise.
  const dirs = { CSAFE_CONFIG_DIR: 'csafe-config-', CSAFE_EMULATOR_DATA_DIR: 'csafe-emulator-' };
  const made = Object.fromEntries(Object.entries(dirs).filter(([name]) => extra[name] === undefined).map(([name, prefix]) => [name, tempDir(prefix)]));
  return { env: { ...env, ...made, ...extra }, dirs: Object.values(made) };
}

/** A child killed if the test file ends first, whose private directories are removed when it exits. */
function tracked<Child extends ChildProcess>(child: Child, dirs: readonly string[] = []): Child {
  liveChildren.add(child);
  child.once('exit', () => {
    liveChildren.delete(child);
    dirs.forEach(removeTempDir);
  });
  return child;
}

/** bin/csafe as a child process the test controls (to kill it part-way, say). */
export function spawnCsafe(args: readonly string[], options: RunOptions = {}) {
  const [command, ...wrapperArgs] = [...(options.wrapper ?? []), process.execPath];
  const { env, dirs } = cleanEnv(options.env ?? {});
  return tracked(spawn(command!, [...wrapperArgs, BIN, ...args], { env, cwd: options.cwd, stdio: 'pipe' }), dirs);
}

export function runCsafe(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return outcome(spawnCsafe(args, options), options.input, { timeoutMs: options.timeoutMs });
}

/** What a child printed and its exit code, once it has ended; `input` is its whole stdin. */
export function outcome(child: ChildProcessWithoutNullStreams, input: string | Buffer = '', options: EndOptions = {}): Promise<RunResult> {
  const result = ended(child, options);
  // A child that never reads its stdin (given /dev/null instead, or done first) closes the pipe: no failure of the test.
  child.stdin.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  child.stdin.end(input);
  return result;
}

/**
 * What a child printed and its exit code, once it has ended; its stdin is the caller's to write and
 * close. A child still running after `timeoutMs` is killed and the promise rejects, naming it and
 * showing the end of what it printed.
 */
export function ended(child: ChildProcessWithoutNullStreams, { what = commandOf(child), timeoutMs = CHILD_TIMEOUT_MS }: EndOptions = {}): Promise<RunResult> {
  tracked(child);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not exit within ${timeoutMs} ms and was killed\n--- its stdout ended: ${stdout.slice(-500)}\n--- its stderr ended: ${stderr.slice(-500)}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(deadline);
      try {
        assertNoSecret(`${stdout}\n${stderr}`, `what ${what} printed`);
        resolve({ code, stdout, stderr });
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

/**
 * A child's exit code once it has ended (and closed its pipes); after `timeoutMs` it is killed and
 * this fails naming it. Call it before signalling the child: it waits for the next 'close'.
 */
export function exitOf(child: ChildProcess, { what = commandOf(child), timeoutMs = CHILD_TIMEOUT_MS }: EndOptions = {}): Promise<number | null> {
  tracked(child);
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  return withDeadline(closed, timeoutMs, `the exit of ${what}`).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
}

/** A child's command line as a reader knows it: `csafe …` for bin/csafe. */
function commandOf(child: ChildProcess): string {
  const words = child.spawnargs;
  const bin = words.indexOf(BIN);
  return bin >= 0 ? ['csafe', ...words.slice(bin + 1)].join(' ') : words.join(' ');
}

export interface EmulatorProcess {
  baseUrl: string;
  apiKey: string;
  child: ChildProcess;
  /** Env vars pointing csafe at this emulator. */
  env: Record<string, string>;
  control(path: string, init?: { method?: string; body?: unknown }): Promise<unknown>;
  /** The emulator's log of /v1 requests (method, path, status, auth kind …). */
  requests(): Promise<Array<Record<string, unknown>>>;
  stop(): Promise<void>;
}

/** `csafe emulator start --port 0 --json` in a child process, ready when it prints its line. */
export async function startEmulatorProcess(extraArgs: readonly string[] = []): Promise<EmulatorProcess> {
  const { env, dirs } = cleanEnv({});
  // --quiet: a developer's terminal inherits its stderr, where it would log every request of the tests.
  const secrets = [...(extraArgs.includes('--api-key') ? [] : ['--api-key', SWEEP_API_KEY]), ...(extraArgs.includes('--webhook-secret') ? [] : ['--webhook-secret', SWEEP_WEBHOOK_SECRET])];
  const child = tracked(spawn(process.execPath, [BIN, '--quiet', 'emulator', 'start', '--port', '0', '--json', ...secrets, ...extraArgs], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  }), dirs);
  const ready = JSON.parse(await readyLine(child, commandOf(child))) as { base_url: string; api_key: string };
  const control = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const what = `the emulator's answer to ${init.method ?? 'GET'} ${path}`;
    const response = await withDeadline(
      fetch(ready.base_url + path, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${ready.api_key}`, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }).then(async (answer) => answer.text()),
      EMULATOR_TIMEOUT_MS,
      what,
    );
    return response === '' ? undefined : JSON.parse(response);
  };
  return {
    baseUrl: ready.base_url,
    apiKey: ready.api_key,
    child,
    env: { CSAFE_BASE_URL: ready.base_url, CSAFE_API_KEY: ready.api_key },
    control,
    requests: async () => ((await control('/_emulator/requests')) as { requests: Array<Record<string, unknown>> }).requests,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      try {
        await withDeadline(exited, EMULATOR_TIMEOUT_MS, `the emulator's exit after SIGINT (${commandOf(child)})`);
      } finally {
        child.kill('SIGKILL');
      }
    },
  };
}

/** The first line a starting emulator prints; it failing to start, or to print within the bound, is an error naming it. */
async function readyLine(child: ChildProcess, what: string): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  try {
    return await withDeadline(
      new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before it was ready`)));
      }),
      EMULATOR_TIMEOUT_MS,
      `the ready line of ${what}`,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/** `promise`, or a failure naming `what` once `timeoutMs` has passed without it settling. */
export function withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let deadline: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    deadline = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(deadline));
}

/** An emulator process for as long as `use` runs, stopped however it ends. */
export async function withEmulatorProcess<T>(extraArgs: readonly string[], use: (emulator: EmulatorProcess) => Promise<T>): Promise<T> {
  const emulator = await startEmulatorProcess(extraArgs);
  try {
    return await use(emulator);
  } finally {
    await emulator.stop();
  }
}

/**
 * One emulator process for the enclosing describe(): started before its tests, stopped after them.
 * The handle is filled in when it is ready, so tests use it directly.
 */
export function useEmulatorProcess(extraArgs: readonly string[] = []): EmulatorProcess {
  const emulator = {} as EmulatorProcess;
  before(async () => void Object.assign(emulator, await startEmulatorProcess(extraArgs)));
  after(() => emulator.stop?.());
  return emulator;
}

/** A loopback port nothing listens on (one the system gave out and took back): every connection to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The pid of a process that has already ended: what a run killed earlier leaves its files named by. */
export function exitedPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '0']);
  assert(pid !== undefined && pid > 0, 'a child process ran');
  return pid;
}

/** Whether script(1) is here to give csafe a real terminal (a pty), as a user's would be. */
export const hasScript = spawnSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'ignore' }).status === 0;
