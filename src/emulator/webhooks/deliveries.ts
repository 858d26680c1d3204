import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { mulberry32, type DeliveryFaultKind } from '../http/faults.js';
import { readFile } from 'node:fs/promises';
import { newSecret, secretKey, signedHeaders } from '../../core/webhooks/signature.js';
import { createFileOnce, makeDirectory } from '../stores/files.js';
import { DeliveryLog, type Delivery } from './delivery-log.js';
import { Endpoints, type Endpoint } from './endpoints.js';
import { isSuccess, postOnce, type PostOutcome } from './post.js';

/**
 * How the emulator notifies the endpoints registered with it, as the service does: each event
 * POSTed, signed (Standard Webhooks), to every endpoint whose filter takes it; an answer other than
 * 2xx, or none within the attempt timeout, tried again after each delay of the retry schedule under
 * the same webhook-id. Deliveries and their attempts are kept under the data directory (a log,
 * DeliveryLog), so a restarted emulator lists them and goes on with those still pending. Delivery
 * never holds up a request: an event is queued in memory and sent in the background, at most
 * MAX_IN_FLIGHT at once; at most MAX_WAITING_PER_ENDPOINT wait for one endpoint and
 * MAX_WAITING in all; past that an event's deliveries are counted as dropped, never held.
 */

/**
 * Under the data directory's `webhooks` folder: the deliveries' log (which a reset empties), the
 * secret made at the first start when --webhook-secret gives none (stable across restarts), and
 * the endpoints registered.
 */
const AREA = 'webhooks';
const DELIVERIES_FILE = join(AREA, 'deliveries.jsonl');
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

interface DeliveryFaults {
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

/** Attempts in flight at once, in all and to one endpoint: a receiver that hangs holds its own slots only. */
const MAX_IN_FLIGHT = 32;
const MAX_IN_FLIGHT_PER_ENDPOINT = 8;
/**
 * Deliveries waiting for one endpoint (due later, or due and waiting for a slot), and for all: past
 * either, new events are dropped, counted. A waiting delivery holds about 1 KB (an object's event
 * of 350 bytes), so the bounds hold a burst of several large adds to a receiver that keeps up, and
 * keep a receiver that hangs to some 50 MB.
 */
const MAX_WAITING_PER_ENDPOINT = 50_000;
const MAX_WAITING = 100_000;
/** What is kept of a receiver's answer in an attempt's error: enough to tell why; the rest is not read. */
const ERROR_TEXT_BYTES = 200;

/** A delivery waiting for its attempt: the timer that makes it due, its endpoint, and its record (held, not read again from disk). */
interface Waiting {
  endpointId: string;
  timer?: NodeJS.Timeout;
  delivery: Delivery;
}

export class Webhooks {
  /** Deliveries waiting for their attempt, by id. */
  private readonly pending = new Map<string, Waiting>();
  /** How many deliveries wait for each endpoint, saved or about to be. */
  private readonly waitingFor = new Map<string, number>();
  /** The deliveries due, queued by endpoint, and the attempts in flight to each. */
  private readonly ready = new Map<string, string[]>();
  private readonly inFlightTo = new Map<string, number>();
  private inFlight = 0;
  private closed = false;
  /** Counts resets: work begun before one (a save, an attempt) keeps nothing of itself after it. */
  private generation = 0;
  private droppedCount = 0;
  private readonly attempts = new Set<Promise<void>>();
  /**
   * Aborts the attempts in flight when the emulator stops (they are made again at the next start)
   * or is reset (they are forgotten): none holds a slot until its timeout for nothing.
   */
  private stopping = new AbortController();
  private readonly drawFault: () => 'drop' | 'delay' | undefined;

  private constructor(
    private readonly log: DeliveryLog,
    private readonly endpoints: Endpoints,
    private readonly settings: DeliverySettings & { secret: string },
  ) {
    const { faults } = settings;
    const random = mulberry32(faults?.seed ?? 1);
    this.drawFault = () => (faults === undefined || faults.kinds.length === 0 || random() >= faults.rate ? undefined : faults.kinds[Math.floor(random() * faults.kinds.length)]);
  }

  static async open(dataDir: string, settings: DeliverySettings): Promise<Webhooks> {
    await makeDirectory(join(dataDir, AREA));
    const log = await DeliveryLog.open(join(dataDir, DELIVERIES_FILE));
    const secret = settings.secret ?? (await storedSecret(join(dataDir, SECRET_FILE)));
    let webhooks: Webhooks | undefined;
    // A lease may run out while Endpoints.open still writes its file: removed once there is a Webhooks to remove it.
    const expiredEarly: string[] = [];
    const expired = (id: string) => (webhooks === undefined ? void expiredEarly.push(id) : void webhooks.removeEndpoint(id).catch(() => undefined));
    const endpoints = await Endpoints.open({ path: join(dataDir, ENDPOINTS_FILE), initialUrls: settings.initialUrls, now: settings.now, expired });
    webhooks = new Webhooks(log, endpoints, { ...settings, secret });
    for (const id of expiredEarly) expired(id);
    webhooks.resume();
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
    return this.endpoints.targetsOf(type).length > 0;
  }

  /** Whether one more event of the type would be queued for some endpoint rather than dropped. */
  hasRoom(type: string): boolean {
    return !this.closed && this.endpoints.targetsOf(type).some((endpoint) => this.hasRoomFor(endpoint.endpoint_id));
  }

  /** Events never made, the queue being full: counted as dropped, as if each had been refused. */
  countDropped(events: number): void {
    this.droppedCount += events;
  }

  listEndpoints(): Endpoint[] {
    return this.endpoints.list();
  }

  addEndpoint(url: string, events: string[] | null, leaseSeconds?: number): Promise<Endpoint> {
    return this.endpoints.add(url, events, leaseSeconds);
  }

  renewEndpoint(id: string): Promise<Endpoint | undefined> {
    return this.endpoints.renew(id);
  }

  /** False when there is no such endpoint. Its deliveries still waiting are never made: listed as cancelled. Also when its lease runs out. */
  async removeEndpoint(id: string): Promise<boolean> {
    if (!this.endpoints.has(id)) return false;
    // Leaves the list now, saved after: its deliveries are cancelled as it leaves, so no listing shows one pending for an endpoint gone.
    const saved = this.endpoints.remove(id);
    for (const [deliveryId, waiting] of this.pending) {
      if (waiting.endpointId !== id) continue;
      this.forget(deliveryId);
      this.cancel(waiting.delivery);
    }
    this.ready.delete(id);
    return saved;
  }

  page(limit: number, after?: string) {
    return this.log.page(limit, after);
  }

  /**
   * Queues one event for every endpoint that takes its type and has room, its first attempt at
   * `dueAt` (when the work it reports ends); the webhook-id it goes out under, shared by its
   * deliveries, and how many were queued (an endpoint without room counts one dropped). Resolves
   * once they are written to the log.
   */
  async emit(type: string, payload: unknown, dueAt = this.settings.now()): Promise<{ webhook_id: string; deliveries: number }> {
    const queued = this.queue(type, payload, dueAt);
    await this.log.written();
    return queued;
  }

  /**
   * emit() for the handler of a request: queued at once, in memory, its answer never waits on
   * delivery or the log, nor fails with them.
   */
  notify(type: string, payload: unknown, dueAt?: number): void {
    if (this.wanted(type)) this.queue(type, payload, dueAt ?? this.settings.now());
  }

  private queue(type: string, payload: unknown, dueAt: number): { webhook_id: string; deliveries: number } {
    // randomUUID draws its entropy in bulk: one id per event of a burst of thousands.
    const webhookId = `msg_${randomUUID().replaceAll('-', '')}`;
    const body = JSON.stringify(payload);
    let queued = 0;
    for (const endpoint of this.endpoints.targetsOf(type)) {
      const endpointId = endpoint.endpoint_id;
      if (this.closed || !this.hasRoomFor(endpointId)) {
        this.droppedCount++;
        continue;
      }
      const delivery: Delivery = {
        delivery_id: this.log.newId(),
        webhook_id: webhookId,
        type,
        endpoint_id: endpointId,
        url: endpoint.url,
        payload: body,
        state: 'pending',
        attempts: [],
        next_attempt_at: new Date(dueAt).toISOString(),
        created_at: this.timestamp(),
      };
      this.log.put(delivery);
      this.schedule(delivery, dueAt);
      queued++;
    }
    return { webhook_id: webhookId, deliveries: queued };
  }

  /** Stops sending; the pending deliveries stay in the log, for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    this.endpoints.close();
    this.stopping.abort();
    this.forgetAll();
    await Promise.all(this.attempts);
    await this.log.written().catch(() => undefined);
  }

  /** Forgets every delivery and endpoint but those given at start: POST /_emulator/reset. */
  async clear(): Promise<void> {
    this.generation++;
    this.stopping.abort();
    this.stopping = new AbortController();
    this.forgetAll();
    this.droppedCount = 0;
    // Both forget at once (their writes follow): an event notified meanwhile finds the endpoints of after the reset.
    await Promise.all([this.log.clear(), this.endpoints.clear()]);
  }

  private forgetAll(): void {
    for (const waiting of this.pending.values()) if (waiting.timer !== undefined) clearTimeout(waiting.timer);
    this.pending.clear();
    this.waitingFor.clear();
    this.ready.clear();
  }

  /** What an earlier emulator left pending goes on, each at its due time (it was within its endpoint's room when queued). */
  private resume(): void {
    for (const delivery of [...this.log.pending()]) {
      if (this.endpoints.has(delivery.endpoint_id)) this.schedule(delivery, Date.parse(delivery.next_attempt_at ?? delivery.created_at));
      else this.cancel(delivery);
    }
  }

  /** A delivery whose endpoint was removed: never made, listed as cancelled. */
  private cancel(delivery: Delivery): void {
    delivery.state = 'cancelled';
    delivery.next_attempt_at = null;
    this.log.put(delivery);
  }

  private hasRoomFor(endpointId: string): boolean {
    return this.waiting(endpointId) < MAX_WAITING_PER_ENDPOINT && this.pending.size < MAX_WAITING;
  }

  private waiting(endpointId: string): number {
    return this.waitingFor.get(endpointId) ?? 0;
  }

  /** Waits for the delivery's next attempt, due at `dueAt`, counted in its endpoint's room. */
  private schedule(delivery: Delivery, dueAt: number): void {
    const { delivery_id: id, endpoint_id: endpointId } = delivery;
    this.waitingFor.set(endpointId, this.waiting(endpointId) + 1);
    const wait = Math.max(0, dueAt - this.settings.now());
    const timer = setTimeout(() => {
      this.pending.set(id, { endpointId, delivery });
      const queue = this.ready.get(endpointId) ?? [];
      queue.push(id);
      this.ready.set(endpointId, queue);
      this.pump();
    }, wait);
    timer.unref();
    this.pending.set(id, { endpointId, timer, delivery });
  }

  /** A delivery no longer waited for: its timer stopped, its endpoint's count down. */
  private forget(id: string): void {
    const waiting = this.pending.get(id);
    if (waiting === undefined) return;
    if (waiting.timer !== undefined) clearTimeout(waiting.timer);
    this.pending.delete(id);
    countDown(this.waitingFor, waiting.endpointId);
  }

  /** Starts the attempts that are due, endpoint by endpoint in turn, within the limits in all and per endpoint. */
  private pump(): void {
    let started = true;
    while (started && !this.closed && this.inFlight < MAX_IN_FLIGHT) {
      started = false;
      for (const [endpointId, queue] of this.ready) {
        if (this.inFlight >= MAX_IN_FLIGHT) break;
        if (queue.length === 0) {
          this.ready.delete(endpointId);
          continue;
        }
        if ((this.inFlightTo.get(endpointId) ?? 0) >= MAX_IN_FLIGHT_PER_ENDPOINT) continue;
        this.start(queue.shift()!, endpointId);
        started = true;
      }
    }
  }

  private start(id: string, endpointId: string): void {
    this.inFlight++;
    this.inFlightTo.set(endpointId, (this.inFlightTo.get(endpointId) ?? 0) + 1);
    const attempt = this.attempt(id).finally(() => {
      this.inFlight--;
      countDown(this.inFlightTo, endpointId);
      this.attempts.delete(attempt);
      this.pump();
    });
    this.attempts.add(attempt);
  }

  private async attempt(id: string): Promise<void> {
    const delivery = this.pending.get(id)?.delivery;
    if (delivery === undefined || delivery.state !== 'pending') return this.forget(id);
    const started = this.settings.now();
    const generation = this.generation;
    const outcome = await this.post(delivery, started);
    // Cut short by a stop: left pending as it was, for the next start; forgotten by a reset meanwhile.
    if (this.closed || generation !== this.generation) return;
    // Cancelled while in flight and since forgotten (MAX_FINISHED finished after it): not brought back.
    if (delivery.state !== 'pending' && !this.log.has(id)) return this.forget(id);
    delivery.attempts.push({ at: new Date(started).toISOString(), ...outcome, duration_ms: this.settings.now() - started });
    const succeeded = isSuccess(outcome);
    const delay = this.settings.retryDelaysMs[delivery.attempts.length - 1];
    this.forget(id);
    // Cancelled meanwhile (its endpoint removed while the attempt was in flight): it stays so, unless this attempt delivered it.
    if (succeeded || (delivery.state === 'pending' && delay === undefined)) {
      delivery.state = succeeded ? 'delivered' : 'failed';
      delivery.next_attempt_at = null;
    } else if (delivery.state === 'pending') {
      const dueAt = this.settings.now() + delay;
      delivery.next_attempt_at = new Date(dueAt).toISOString();
      this.schedule(delivery, dueAt);
    }
    this.log.put(delivery);
  }

  /** One POST of the delivery, signed as it is sent: the receiver's status, or why there was none; an injected fault drops or delays it. */
  private async post(delivery: Delivery, at: number): Promise<PostOutcome> {
    const fault = this.drawFault();
    if (fault === 'drop') return { error: 'dropped (injected fault): not sent' };
    if (fault === 'delay') await delay(this.settings.faults!.delayMs, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    const signed = signedHeaders(this.settings.secret, delivery.webhook_id, Math.floor((fault === 'delay' ? this.settings.now() : at) / 1000), delivery.payload);
    return postOnce({
      url: delivery.url,
      headers: { ...signed, 'content-type': 'application/json', 'user-agent': 'csafe-emulator-webhooks' },
      body: delivery.payload,
      timeoutMs: this.settings.attemptTimeoutMs,
      answerBytes: ERROR_TEXT_BYTES,
      signal: this.stopping.signal,
    });
  }

  private timestamp(): string {
    return new Date(this.settings.now()).toISOString();
  }
}

/** One less for the key; a count that reaches 0 is dropped, so endpoints come and go (a listener's each run) without the maps growing. */
function countDown(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

/** The data directory's secret, made at its first start; one that is not a whsec_ secret is refused rather than used. */
async function storedSecret(path: string): Promise<string> {
  await createFileOnce(path, newSecret());
  const secret = (await readFile(path, 'utf8')).trim();
  secretKey(secret);
  return secret;
}
