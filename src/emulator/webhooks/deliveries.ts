import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToRequests, setTimeout as delay } from 'node:timers/promises';
import { mulberry32, type DeliveryFaultKind } from '../http/faults.js';
import { readFile } from 'node:fs/promises';
import { newSecret, secretKey, signedHeaders } from '../../core/webhooks/signature.js';
import { createFileOnce, replaceFile } from '../stores/files.js';
import { JobStore, type JobKind } from '../stores/job-store.js';

/**
 * How the emulator notifies the endpoints registered with it, as the service does: each event
 * POSTed, signed (Standard Webhooks), to every endpoint whose filter takes it; an answer other than
 * 2xx, or none within the attempt timeout, tried again after each delay of the retry schedule under
 * the same webhook-id. Deliveries and their attempts are kept under the data directory, so a
 * restarted emulator lists them and goes on with those still pending. Delivery never holds up a
 * request: an event is queued and sent in the background, at most MAX_IN_FLIGHT at once, and at
 * most MAX_PENDING wait; past that an event's deliveries are counted as dropped, never held.
 */

/** An endpoint events are sent to: all of them, or only the types listed. */
export interface Endpoint {
  endpoint_id: string;
  url: string;
  /** The event types it takes; null: every type. */
  events: string[] | null;
  created_at: string;
}

interface Attempt {
  at: string;
  /** The receiver's status; absent when there was no answer. */
  status?: number;
  error?: string;
  duration_ms: number;
}

/** One event on its way to one endpoint. */
export interface Delivery {
  delivery_id: string;
  /** The webhook-id header: the same on every attempt, so receivers de-duplicate on it. */
  webhook_id: string;
  type: string;
  endpoint_id: string;
  url: string;
  /** The body as sent, byte for byte. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: Attempt[];
  /** When the next attempt is due (pending only). */
  next_attempt_at: string | null;
  created_at: string;
}

/**
 * Under the data directory's `webhooks` folder: the deliveries (which a reset forgets), the
 * secret made at the first start when --webhook-secret gives none (stable across restarts), and
 * the endpoints registered.
 */
const AREA = 'webhooks';
export const DELIVERIES: JobKind = { area: `${AREA}/deliveries`, idPrefix: 'dlv', extension: 'json' };
const SECRET_FILE = join(AREA, 'secret');
const ENDPOINTS_FILE = join(AREA, 'endpoints.json');

/** How deliveries are made: the secret, the retry schedule and the attempt timeout (shortened by flags for tests). */
export interface DeliverySettings {
  /** --webhook-secret; without it, the data directory's, made at its first start. */
  secret?: string;
  /** The waits before the second, third … attempt; their count + 1 is the most attempts. */
  retryDelaysMs: readonly number[];
  attemptTimeoutMs: number;
  /** Endpoints given at start (--webhook-url): registered when no endpoint has their URL. */
  initialUrls: readonly string[];
  /** Injected delivery faults: a share of attempts dropped (not made, retried as a failure) or delayed. */
  faults?: DeliveryFaults;
  now: () => number;
}

export interface DeliveryFaults {
  rate: number;
  kinds: readonly DeliveryFaultKind[];
  /** How long a delayed attempt waits before it is sent. */
  delayMs: number;
  /** The draws' seed, as --seed: the same seed, the same faults by attempt order. */
  seed: number;
}

/** The schedule of Standard Webhooks senders: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 15_000;

const MAX_IN_FLIGHT = 8;
const MAX_PENDING = 10_000;
/** What is kept of a receiver's answer in an attempt's error: enough to tell why, not its whole page. */
const ERROR_TEXT_CHARS = 200;

export class Webhooks {
  private endpoints: Endpoint[] = [];
  /** Deliveries waiting for their attempt, by id, with the timer that starts it. */
  private readonly pending = new Map<string, NodeJS.Timeout | undefined>();
  private readonly ready: string[] = [];
  private inFlight = 0;
  private closed = false;
  /** Counts resets: an attempt that was in flight during one saves nothing, so a reset store stays empty. */
  private generation = 0;
  private droppedCount = 0;
  private readonly attempts = new Set<Promise<void>>();
  /** Aborts the attempts in flight when the emulator stops: they are made again at the next start. */
  private readonly stopping = new AbortController();
  private readonly drawFault: () => 'drop' | 'delay' | undefined;
  /** Events notified and not yet saved as deliveries, saved one at a time (saveQueued). */
  private readonly toSave: Array<{ type: string; payload: unknown; dueAt: number | undefined }> = [];
  private saving = false;

  private constructor(
    private readonly store: JobStore<Delivery>,
    private readonly endpointsPath: string,
    private readonly settings: DeliverySettings & { secret: string },
  ) {
    const { faults } = settings;
    const random = mulberry32(faults?.seed ?? 1);
    this.drawFault = () => (faults === undefined || faults.kinds.length === 0 || random() >= faults.rate ? undefined : faults.kinds[Math.floor(random() * faults.kinds.length)]);
  }

  static async open(dataDir: string, settings: DeliverySettings): Promise<Webhooks> {
    const deliveries = await JobStore.open<Delivery>(dataDir, DELIVERIES);
    const secret = settings.secret ?? (await storedSecret(join(dataDir, SECRET_FILE)));
    const webhooks = new Webhooks(deliveries, join(dataDir, ENDPOINTS_FILE), { ...settings, secret });
    await webhooks.load();
    return webhooks;
  }

  /** The whsec_… secret deliveries are signed with. */
  get secret(): string {
    return this.settings.secret;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  /** Whether an event of this type would be sent anywhere: work that makes many events skips making them otherwise. */
  wanted(type: string): boolean {
    return this.endpoints.some((endpoint) => endpoint.events === null || endpoint.events.includes(type));
  }

  /** Whether one more delivery would be queued rather than dropped. */
  hasRoom(): boolean {
    return !this.closed && this.pending.size + this.toSave.length < MAX_PENDING;
  }

  /** Events never made, the queue being full: counted as dropped, as if each had been refused. */
  countDropped(events: number): void {
    this.droppedCount += events;
  }

  listEndpoints(): Endpoint[] {
    return [...this.endpoints];
  }

  async addEndpoint(url: string, events: string[] | null): Promise<Endpoint> {
    const endpoint: Endpoint = { endpoint_id: `ep_${randomBytes(8).toString('hex')}`, url, events, created_at: this.timestamp() };
    this.endpoints.push(endpoint);
    await this.saveEndpoints();
    return endpoint;
  }

  /** False when there is no such endpoint. */
  async removeEndpoint(id: string): Promise<boolean> {
    const before = this.endpoints.length;
    this.endpoints = this.endpoints.filter((endpoint) => endpoint.endpoint_id !== id);
    if (this.endpoints.length === before) return false;
    await this.saveEndpoints();
    return true;
  }

  page(limit: number, after?: string) {
    return this.store.page(limit, after);
  }

  /**
   * Queues one event for every endpoint that takes its type, its first attempt at `dueAt` (when
   * the work it reports ends); the webhook-id it goes out under, shared by its deliveries.
   */
  async emit(type: string, payload: unknown, dueAt = this.settings.now()): Promise<{ webhook_id: string; deliveries: number }> {
    const webhookId = `msg_${randomBytes(12).toString('base64url')}`;
    const targets = this.endpoints.filter((endpoint) => endpoint.events === null || endpoint.events.includes(type));
    let queued = 0;
    for (const endpoint of targets) {
      if (this.closed || this.pending.size >= MAX_PENDING) {
        this.droppedCount++;
        continue;
      }
      const delivery: Delivery = {
        delivery_id: this.store.newId(),
        webhook_id: webhookId,
        type,
        endpoint_id: endpoint.endpoint_id,
        url: endpoint.url,
        payload: JSON.stringify(payload),
        state: 'pending',
        attempts: [],
        next_attempt_at: new Date(dueAt).toISOString(),
        created_at: this.timestamp(),
      };
      await this.store.save(delivery.delivery_id, delivery);
      this.schedule(delivery.delivery_id, dueAt);
      queued++;
    }
    return { webhook_id: webhookId, deliveries: queued };
  }

  /**
   * emit() in the background, for the handler of a request: its answer never waits on delivery,
   * nor fails with it. Events are saved one at a time, yielding between saves, so a burst (an add of
   * thousands of objects) never crowds the file system out from under the requests being served.
   */
  notify(type: string, payload: unknown, dueAt?: number): void {
    if (!this.wanted(type)) return;
    if (!this.hasRoom()) return this.countDropped(1);
    this.toSave.push({ type, payload, dueAt });
    void this.saveQueued();
  }

  private async saveQueued(): Promise<void> {
    if (this.saving) return;
    this.saving = true;
    try {
      for (let event = this.toSave.shift(); event !== undefined; event = this.toSave.shift()) {
        await this.emit(event.type, event.payload, event.dueAt).catch(() => undefined);
        await yieldToRequests();
      }
    } finally {
      this.saving = false;
    }
  }

  /** Stops sending; the pending deliveries stay on disk, for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    this.toSave.length = 0;
    this.stopping.abort();
    for (const timer of this.pending.values()) if (timer !== undefined) clearTimeout(timer);
    this.pending.clear();
    this.ready.length = 0;
    await Promise.all(this.attempts);
  }

  /** Forgets every delivery and endpoint but those given at start: POST /_emulator/reset. */
  async clear(): Promise<void> {
    this.generation++;
    this.toSave.length = 0;
    for (const timer of this.pending.values()) if (timer !== undefined) clearTimeout(timer);
    this.pending.clear();
    this.ready.length = 0;
    this.droppedCount = 0;
    await this.store.clear();
    this.endpoints = [];
    await this.registerInitialUrls();
  }

  private async load(): Promise<void> {
    try {
      this.endpoints = JSON.parse(await readFile(this.endpointsPath, 'utf8')) as Endpoint[];
    } catch {
      this.endpoints = [];
    }
    await this.registerInitialUrls();
    // What an earlier emulator left pending goes on, each at its due time.
    let after: string | undefined;
    for (;;) {
      const { records, next } = await this.store.page(1000, after);
      for (const delivery of records) if (delivery.state === 'pending' && this.pending.size < MAX_PENDING) this.schedule(delivery.delivery_id, Date.parse(delivery.next_attempt_at ?? delivery.created_at));
      if (next === null) break;
      after = next;
    }
  }

  private async registerInitialUrls(): Promise<void> {
    const known = new Set(this.endpoints.map((endpoint) => endpoint.url));
    for (const url of this.settings.initialUrls) if (!known.has(url)) await this.addEndpoint(url, null);
    if (this.settings.initialUrls.length === 0) await this.saveEndpoints();
  }

  private saveEndpoints(): Promise<void> {
    return replaceFile(this.endpointsPath, JSON.stringify(this.endpoints));
  }

  private schedule(id: string, dueAt: number): void {
    const wait = Math.max(0, dueAt - this.settings.now());
    const timer = setTimeout(() => {
      this.pending.set(id, undefined);
      this.ready.push(id);
      this.pump();
    }, wait);
    timer.unref();
    this.pending.set(id, timer);
  }

  /** Starts the attempts that are due, up to MAX_IN_FLIGHT at once. */
  private pump(): void {
    while (!this.closed && this.inFlight < MAX_IN_FLIGHT && this.ready.length > 0) {
      const id = this.ready.shift()!;
      this.inFlight++;
      const attempt = this.attempt(id).finally(() => {
        this.inFlight--;
        this.attempts.delete(attempt);
        this.pump();
      });
      this.attempts.add(attempt);
    }
  }

  private async attempt(id: string): Promise<void> {
    const delivery = await this.store.get(id);
    if (delivery === undefined || delivery.state !== 'pending') {
      this.pending.delete(id);
      return;
    }
    const started = this.settings.now();
    const generation = this.generation;
    const outcome = await this.post(delivery, started);
    // Cut short by a stop: left pending as it was, for the next start; forgotten by a reset meanwhile.
    if (this.closed || generation !== this.generation) return;
    delivery.attempts.push({ at: new Date(started).toISOString(), ...outcome, duration_ms: this.settings.now() - started });
    const succeeded = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
    const delay = this.settings.retryDelaysMs[delivery.attempts.length - 1];
    this.pending.delete(id);
    if (succeeded || delay === undefined) {
      delivery.state = succeeded ? 'delivered' : 'failed';
      delivery.next_attempt_at = null;
    } else {
      const dueAt = this.settings.now() + delay;
      delivery.next_attempt_at = new Date(dueAt).toISOString();
      this.schedule(id, dueAt);
    }
    await this.store.save(id, delivery);
  }

  /** One POST of the delivery, signed as it is sent: the receiver's status, or why there was none; an injected fault drops or delays it. */
  private async post(delivery: Delivery, at: number): Promise<{ status?: number; error?: string }> {
    const fault = this.drawFault();
    if (fault === 'drop') return { error: 'dropped (injected fault): not sent' };
    if (fault === 'delay') await delay(this.settings.faults!.delayMs, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    const headers = signedHeaders(this.settings.secret, delivery.webhook_id, Math.floor((fault === 'delay' ? this.settings.now() : at) / 1000), delivery.payload);
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'csafe-emulator-webhooks' },
        body: delivery.payload,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.settings.attemptTimeoutMs), this.stopping.signal]),
      });
      const text = (await response.text()).slice(0, ERROR_TEXT_CHARS);
      return response.ok ? { status: response.status } : { status: response.status, error: text === '' ? `answered ${response.status}` : text };
    } catch (error) {
      const name = (error as Error).name;
      return { error: name === 'TimeoutError' ? `no answer within ${this.settings.attemptTimeoutMs / 1000} s` : describeFetchError(error) };
    }
  }

  private timestamp(): string {
    return new Date(this.settings.now()).toISOString();
  }
}

/** `connection refused (ECONNREFUSED)` rather than fetch's "fetch failed". */
function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  return cause?.message ?? (error as Error).message;
}

/** The data directory's secret, made at its first start; one that is not a whsec_ secret is refused rather than used. */
async function storedSecret(path: string): Promise<string> {
  await createFileOnce(path, newSecret());
  const secret = (await readFile(path, 'utf8')).trim();
  secretKey(secret);
  return secret;
}
