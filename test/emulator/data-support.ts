import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import type { Readable } from 'node:stream';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { waitFor } from '../helpers/wait.js';
import { call } from './support.js';

export interface DataRecord {
  namespace: string;
  request_id: string;
  status: string;
  data?: Array<Record<string, unknown>>;
  data_count?: number;
  data_url?: string | null;
  data_expires_at?: string | null;
  error?: { message: string };
  [extra: string]: unknown;
}

export interface ImportIssued {
  expires_at: string;
  objectKey: string;
  requestId: string;
  status: string;
  upload_url: string;
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A clock the test moves by hand, for the time-derived statuses and URL expiry. */
export function manualClock(start = Date.parse('2026-11-20T10:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

export async function addData(emulator: RunningEmulator, namespace: string, data: unknown): Promise<string> {
  const reply = await call(emulator, 'POST', `/v1/data/${namespace}`, { json: { data } });
  assert.equal(reply.status, 202, JSON.stringify(reply.body));
  return (reply.body as { requestId: string }).requestId;
}

export async function requestImport(emulator: RunningEmulator, namespace: string): Promise<ImportIssued> {
  const reply = await call(emulator, 'POST', `/v1/data/${namespace}/import`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as ImportIssued;
}

export async function getRecord(emulator: RunningEmulator, namespace: string, requestId: string): Promise<DataRecord> {
  const reply = await call(emulator, 'GET', `/v1/data/${namespace}/requests/${requestId}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as DataRecord;
}

/** Polls (real time) until the request is succeeded or failed. */
export async function waitForTerminal(emulator: RunningEmulator, namespace: string, requestId: string): Promise<DataRecord> {
  return waitForStatus(emulator, namespace, requestId, ['succeeded', 'failed']);
}

/** Polls (real time) until the request reaches one of `statuses`. */
export async function waitForStatus(emulator: RunningEmulator, namespace: string, requestId: string, statuses: readonly string[]): Promise<DataRecord> {
  return waitFor(async () => {
    const record = await getRecord(emulator, namespace, requestId);
    return statuses.includes(record.status) && record;
  }, { what: `request ${requestId} to be ${statuses.join(' or ')}` });
}

/** A PUT the way an object-store client sends it: streamed by node's http, with Content-Length. */
export function put(url: string, body: string | Buffer | Readable, headers: Record<string, string | number> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const length = typeof body === 'string' || Buffer.isBuffer(body) ? Buffer.byteLength(body) : undefined;
    const req = request(url, { method: 'PUT', headers: { 'Content-Type': 'application/json', ...(length !== undefined && { 'Content-Length': length }), ...headers } });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    if (typeof body === 'string' || Buffer.isBuffer(body)) req.end(body);
    else body.pipe(req);
  });
}

/**
 * A request written to a socket as is, for what no HTTP client would send; resolves with what came
 * back once the server closes. `hangUp` closes our side after the bytes, cutting a body short.
 */
export function rawHttp(url: string, head: string, body = '', { hangUp = false } = {}): Promise<string> {
  const { hostname, port, pathname, search } = new URL(url);
  const bytes = `${head.replace('{path}', pathname + search)}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n${body}`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => (hangUp ? socket.end(bytes) : socket.write(bytes)));
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

/** The S3-style error code of an XML error body. */
export const s3Code = (text: string) => /<Code>([^<]*)<\/Code>/.exec(text)?.[1];

export const jsonl = (objects: readonly unknown[]) => objects.map((object) => JSON.stringify(object)).join('\n') + '\n';
