import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach } from 'node:test';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { errorBodySchema, type ErrorBody } from '../../src/schemas/errors.js';
import { SWEEP_API_KEY, SWEEP_WEBHOOK_SECRET } from '../helpers/secrets.js';
import type { EXAMPLE_IMAGES } from './png.js';

export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface CallOptions {
  /** Serialised as the JSON body. */
  json?: unknown;
  /** A raw body, sent as is (as application/json unless `headers` says otherwise). */
  body?: string;
  headers?: Record<string, string>;
  /** Bearer credential; the emulator's API key by default (which /_emulator routes need), null for no Authorization header. */
  key?: string | null;
}

/** On a free port, with the secrets of the sweep (test/helpers/secrets.ts) unless the test names its own. */
export const startTestEmulator = (options: EmulatorOptions = {}) =>
  startEmulator({ port: 0, apiKey: SWEEP_API_KEY, ...options, webhooks: { secret: SWEEP_WEBHOOK_SECRET, ...options.webhooks } });

/**
 * One emulator for the enclosing describe(): started before its tests, reset before each, closed
 * after. The returned handle reads through to the running instance, so tests use it directly.
 */
export function useTestEmulator(options: EmulatorOptions = {}): RunningEmulator {
  let running: RunningEmulator | undefined;
  const current = () => {
    if (running === undefined) throw new Error('the emulator is not running: call useTestEmulator() inside describe()');
    return running;
  };
  before(async () => {
    running = await startTestEmulator(options);
  });
  after(() => current().close());
  beforeEach(() => resetEmulator(current()));
  return {
    get baseUrl() { return current().baseUrl; },
    get apiKey() { return current().apiKey; },
    get port() { return current().port; },
    get host() { return current().host; },
    get webhookSecret() { return current().webhookSecret; },
    requests: () => current().requests(),
    close: () => current().close(),
  };
}

/** An emulator (no processing delay unless given) for the length of `use`, closed whatever happens. */
export async function withEmulator<T>(options: EmulatorOptions, use: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startTestEmulator({ processingDelayMs: 0, ...options });
  try {
    return await use(emulator);
  } finally {
    await emulator.close();
  }
}

/** Raw HTTP, on purpose: these tests check the emulator itself, not the client. */
export async function call(emulator: RunningEmulator, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const key = options.key === undefined ? emulator.apiKey : options.key;
  const headers: Record<string, string> = {
    ...(key === null ? {} : { Authorization: `Bearer ${key}` }),
    ...(options.json === undefined && options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...options.headers,
  };
  const body = options.json === undefined ? options.body : JSON.stringify(options.json);
  const response = await fetch(`${emulator.baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** A call that must answer 200: its JSON body. */
export async function callOk<T>(emulator: RunningEmulator, method: string, path: string, options: CallOptions = {}): Promise<T> {
  const reply = await call(emulator, method, path, options);
  assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
  return reply.body as T;
}

export const resetEmulator = async (emulator: RunningEmulator) => {
  assert.equal((await call(emulator, 'POST', '/_emulator/reset')).status, 200);
};

/** Asserts the status and the error body's shape; returns the error for further checks. */
export function assertError(reply: Reply, status: number, field?: string): ErrorBody['error'] {
  assert.equal(reply.status, status, `expected ${status}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  const { error } = errorBodySchema.parse(reply.body);
  if (field !== undefined) {
    assert.equal(error.field, field);
    assert.match(error.message, new RegExp(`^${escapeRegExp(field)}`), 'the message names the failing field');
  }
  return error;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const examplePath = (name: string) => new URL(`../../../examples/${name}`, import.meta.url);

type ExampleName = keyof typeof EXAMPLE_IMAGES;

/** The committed example images (read relative to dist/test/emulator/). */
export const exampleImage = (name: ExampleName) => readFileSync(examplePath(name));
export const exampleBase64 = (name: ExampleName) => exampleImage(name).toString('base64');
