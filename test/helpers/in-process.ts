// How to run csafe's main() inside the test process, over buffers: the seam for tests of what a
// command prints and returns for its arguments (flags, --help, usage errors, output formats) that
// need no real process (no signals, no real terminal, no exit of a process, no start-up timing).
import { PassThrough } from 'node:stream';
import { main } from '../../src/main.js';
import { CHILD_TIMEOUT_MS, tempDir, withDeadline, type RunResult } from './cli.js';
import { assertNoSecret } from './secrets.js';

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  /** All of stdin; it ends after this (without it, stdin is empty). */
  input?: string | Buffer;
  /** Whether stdout and stderr say they are a terminal (only the flag: nothing draws on a real one). */
  isTTY?: boolean;
  /** Whether stdin says it is a terminal. */
  stdinIsTTY?: boolean;
  /** The terminal's width, read for tables and progress. */
  columns?: number;
  /** Aborts the run as Ctrl-C would (reason SIGINT). */
  signal?: AbortSignal;
  /**
   * The working directory relative paths are read against. It is this process's, changed for the
   * run and changed back after it, so a run given a cwd while another is in flight is refused.
   */
  cwd?: string;
}

/** Whether a run given a cwd has moved the process's directory and not yet moved it back. */
let cwdRunInFlight = false;

/**
 * `csafe …args` run by main() in this process: its exit code and what it wrote to stdout and
 * stderr. Like runCsafe, nothing of the developer's own csafe setup leaks in (a private config
 * directory unless `env` names one) and a run that never ends fails, naming the command.
 */
export async function runInProcess(args: readonly string[], options: InProcessOptions = {}): Promise<RunResult> {
  const stdout = capture(options.isTTY, options.columns);
  const stderr = capture(options.isTTY, options.columns);
  const stdin = Object.assign(new PassThrough(), { isTTY: Boolean(options.stdinIsTTY), setRawMode: () => undefined });
  stdin.end(options.input ?? '');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, CSAFE_CONFIG_DIR: tempDir('csafe-config-'), CSAFE_EMULATOR_DATA_DIR: tempDir('csafe-emulator-'), ...options.env };
  const testCwd = process.cwd();
  if (options.cwd !== undefined) {
    // The directory is the process's: a second run moving it would run the first one's relative paths elsewhere.
    if (cwdRunInFlight) throw new Error(`runInProcess: csafe ${args.join(' ')} was given a cwd while another run with one is in flight`);
    cwdRunInFlight = true;
    process.chdir(options.cwd);
  }
  try {
    const run = main([...args], { stdin, stdout: stdout.stream, stderr: stderr.stream, env, signal: options.signal ?? new AbortController().signal });
    const code = await withDeadline(run, CHILD_TIMEOUT_MS, `csafe ${args.join(' ')} (in process) to end`);
    assertNoSecret(`${stdout.text()}\n${stderr.text()}`, `what csafe ${args.join(' ')} (in process) printed`);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    process.chdir(testCwd);
    if (options.cwd !== undefined) cwdRunInFlight = false;
  }
}

function capture(isTTY = false, columns?: number): { stream: PassThrough & { isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY }, columns !== undefined && { columns });
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return { stream, text: () => text };
}
