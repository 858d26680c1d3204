import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Outcome } from '../../src/commands/app.js';
import { Context } from '../../src/context.js';
import { HttpClient } from '../../src/core/http/client.js';
import type { GlobalFlags } from '../../src/core/cli/global-flags.js';
import { exitCodeOfError, exitCodeOfOutcome } from '../../src/main.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import type { RequestLogEntry } from '../../src/emulator/http/request-log.js';
import { FixedClock } from './clock.js';
import { bufferIO, type BufferedStdin } from './io.js';

/** One request a test expects, as gh's httpmock stubs: method, path, optionally a body check and how often. */
export interface ExpectedRequest {
  method: string;
  path: string | RegExp;
  /** The logged body (its first 4 KiB as text, null when empty) is as the test expects. */
  body?: (text: string | null) => boolean;
  /** How many times it comes (1 by default); 'many' is once or more, for polls timed by real work. */
  times?: number | 'many';
}

/** A body check: the body is JSON equal to `value`. */
export const jsonBody = (value: unknown) => (text: string | null) => text !== null && isDeepStrictEqual(JSON.parse(text), value);

const matches = (expected: ExpectedRequest, entry: RequestLogEntry) =>
  expected.method === entry.method &&
  (typeof expected.path === 'string' ? expected.path === entry.path : expected.path.test(entry.path)) &&
  (expected.body === undefined || expected.body(entry.body));

const describeEntry = (entry: RequestLogEntry) => `${entry.method} ${entry.path} → ${entry.status}${entry.body === null ? '' : ` ${entry.body.slice(0, 200)}`}`;
const describeExpected = (expected: ExpectedRequest) => `${expected.method} ${String(expected.path)}${expected.body ? ' (with a body check)' : ''}`;

/**
 * Strict mode over the emulator's request log (gh's reg.Verify): every request that reached the
 * emulator must have been expected, and every expected request must have come, as often as said.
 */
export function verifyRequests(log: readonly RequestLogEntry[], expected: readonly ExpectedRequest[]): void {
  const counts = expected.map(() => 0);
  const unexpected = log.filter((entry) => {
    const index = expected.findIndex((candidate, at) => matches(candidate, entry) && (candidate.times === 'many' || counts[at]! < (candidate.times ?? 1)));
    if (index === -1) return true;
    counts[index]! += 1;
    return false;
  });
  const missing = expected.filter((candidate, at) => (candidate.times === 'many' ? counts[at] === 0 : counts[at] !== (candidate.times ?? 1)));
  const problems = [
    ...unexpected.map((entry) => `unexpected request: ${describeEntry(entry)}`),
    ...missing.map((candidate) => `expected request did not come ${candidate.times === 'many' ? 'at all' : `${candidate.times ?? 1} time(s)`}: ${describeExpected(candidate)}`),
  ];
  assert.ok(problems.length === 0, problems.join('\n'));
}

export interface TestContextOptions {
  flags?: GlobalFlags;
  /** stdout and stderr claim to be terminals. */
  tty?: boolean;
  emulator?: EmulatorOptions;
  /** What stdin holds (by default it is not a terminal and never ends). */
  stdin?: BufferedStdin;
  /** Environment variables over the ones the helper sets (CSAFE_CONFIG_DIR, CSAFE_BASE_URL, CSAFE_API_KEY); undefined removes one. */
  env?: NodeJS.ProcessEnv;
  /** The run's command line, for the commands it prints (none by default). */
  argv?: readonly string[];
}

export interface CommandTest {
  ctx: Context;
  clock: FixedClock;
  emulator: RunningEmulator;
  /** A temporary directory for input and output files, removed after the test. */
  dir: string;
  stdout(): string;
  stderr(): string;
  /** Empties the emulator's request log: what the test sent to set things up is not the run's. */
  forgetRequests(): Promise<void>;
  /** Declares the requests the run must make; checked after the test (and by verify()). */
  expect(...requests: ExpectedRequest[]): void;
  /** Fails the test now unless exactly the expected requests have reached the emulator. */
  verify(): void;
}

/**
 * A Context for calling a command's *Run function in process: buffered IO, a fixed clock whose
 * sleep advances it (the emulator reads the same clock), the given flags, and an in-process
 * emulator in strict mode. Everything is closed, and the requests verified, in t.after.
 */
export async function commandTest(t: TestContext, options: TestContextOptions = {}): Promise<CommandTest> {
  const clock = new FixedClock();
  const dir = mkdtempSync(join(tmpdir(), 'csafe-command-'));
  const emulator = await startEmulator({ host: '127.0.0.1', port: 0, now: clock.now, ...options.emulator });
  const { io, stdout, stderr } = bufferIO({ tty: options.tty, stdin: options.stdin });
  const ctx = new Context({
    io,
    env: { CSAFE_CONFIG_DIR: join(dir, 'config'), CSAFE_BASE_URL: emulator.baseUrl, CSAFE_API_KEY: emulator.apiKey, ...options.env },
    flags: options.flags ?? {},
    argv: options.argv,
    version: '0.0.0-test',
    signal: new AbortController().signal,
    startLocalService: () => Promise.reject(new Error('--emulator is not used in command tests: the context already has one')),
    now: clock.now,
    sleep: clock.sleep,
    createHttpClient: async (config) => new HttpClient(config),
  });
  const expected: ExpectedRequest[] = [];
  const verify = () => verifyRequests(emulator.requests(), expected);
  t.after(async () => {
    try {
      await ctx.close();
      await emulator.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    verify();
  });
  const forgetRequests = async () => {
    const response = await fetch(`${emulator.baseUrl}/_emulator/requests`, { method: 'DELETE', headers: { Authorization: `Bearer ${emulator.apiKey}` } });
    assert.equal(response.status, 200);
  };
  return { ctx, clock, emulator, dir, stdout, stderr, forgetRequests, expect: (...requests) => void expected.push(...requests), verify };
}

/** The exit code main gives a *Run function's result: the outcome it returned, or the error it threw. */
export async function exitCodeOf(run: Promise<Outcome | void>): Promise<number> {
  try {
    return exitCodeOfOutcome(await run);
  } catch (error) {
    return exitCodeOfError(error);
  }
}
