import { checkJsonLines } from '../storage/jsonl-file.js';
import { replaceFileInParts } from '../stores/files.js';
import { newOrderedId } from '../stores/ids.js';
import { LineFiles } from '../stores/line-files.js';

/** One attempt to deliver: when, the receiver's status (absent when there was no answer), why it failed, how long it took. */
interface Attempt {
  at: string;
  status?: number;
  error?: string;
  duration_ms: number;
}

/**
 * One event on its way to one endpoint. `cancelled`: its endpoint was removed before it was
 * delivered, so it never will be.
 */
export interface Delivery {
  delivery_id: string;
  /** The webhook-id header: the same on every attempt, so receivers de-duplicate on it. */
  webhook_id: string;
  type: string;
  endpoint_id: string;
  url: string;
  /** The body as sent, byte for byte. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed' | 'cancelled';
  attempts: Attempt[];
  /** When the next attempt is due (pending only). */
  next_attempt_at: string | null;
  created_at: string;
}

/** Finished deliveries kept for the listing: older ones are forgotten, so the log and memory stay bounded however long the emulator runs. */
export const MAX_FINISHED = 10_000;
/** The log is written anew, with only the latest line of each delivery, once it holds more lines than twice the deliveries kept and this. */
const REWRITE_SLACK_LINES = 20_000;
/** Deliveries serialised per write when the log is written anew: between two, requests are served. */
const REWRITE_PART = 1000;

const isFinished = (delivery: Delivery) => delivery.state !== 'pending';

/**
 * The deliveries, in memory for the sender and the listing, and on disk as one append-only JSONL
 * log for the next start: a line each time a delivery is queued or an attempt ends, the last line
 * of an id its state. Lines are written in groups, one append for all those made since the last,
 * so a burst of thousands of events costs a handful of writes rather than a file each (which took
 * the file system from the requests being served). When the log holds many more lines than
 * deliveries it is written anew, part by part, and renamed over the old. A line a killed emulator left half-written
 * is cut off before the log is read (LineFiles). Only the latest MAX_FINISHED finished deliveries
 * are kept; pending ones are bounded by the sender's queue.
 */
export class DeliveryLog {
  /** By id, in the order they were queued: the listing's order. */
  private readonly deliveries = new Map<string, Delivery>();
  /** Ids of finished deliveries, in the order they finished: the first the first to be forgotten. */
  private readonly finished = new Set<string>();
  private readonly lineFiles = new LineFiles();
  /** Deliveries changed since the last write: each written once, as it stands when its group is written. */
  private unwritten = new Set<Delivery>();
  /** How many lines the file holds. */
  private linesInFile = 0;
  /** Set when a write failed (a full disk): the next write is the whole state, so nothing lost from the file stays lost. */
  private rewriteWhole = false;
  private writing: Promise<void> | undefined;
  /** Why the last write failed, until one succeeds. */
  private writeFailure: unknown;
  /** Changes put (or a reset) so far, and how many of them the file holds: written() waits for its own, not for a log kept busy. */
  private changes = 0;
  private changesWritten = 0;
  private readonly waiters: Array<{ upTo: number; resolve: () => void; reject: (error: unknown) => void }> = [];
  /** A reset asked for: the next write makes the file anew from what is kept (nothing, or what was put since). */
  private emptyFile = false;

  private constructor(private readonly path: string) {}

  /** The log at `path` read back (none yet: no deliveries); a line that is not a delivery is refused, naming it, rather than dropped. */
  static async open(path: string): Promise<DeliveryLog> {
    const log = new DeliveryLog(path);
    await log.lineFiles.whole(path);
    const read = await checkJsonLines(path, (value) => {
      if (!isDelivery(value)) return 'expected a webhook delivery';
      log.keep(value);
      log.linesInFile++;
      return undefined;
    }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { count: 0 };
      throw error;
    });
    if ('error' in read) throw new Error(`${path} ${read.error}: the emulator's webhook deliveries cannot be read (remove the file to start with none)`);
    return log;
  }

  /** An id for a new delivery: later ones sort after it. */
  newId = () => newOrderedId('dlv');

  /** Whether the delivery is still kept (a finished one may have been forgotten). */
  has(id: string): boolean {
    return this.deliveries.has(id);
  }

  get size(): number {
    return this.deliveries.size;
  }

  /** The deliveries still pending, in the order they were queued. */
  *pending(): IterableIterator<Delivery> {
    for (const delivery of this.deliveries.values()) if (!isFinished(delivery)) yield delivery;
  }

  /** Records a delivery as it now stands (new, or after an attempt): kept at once, written with the next group (as it stands then). */
  put(delivery: Delivery): void {
    this.keep(delivery);
    this.unwritten.add(delivery);
    this.changes++;
    this.writing ??= this.writeAll();
  }

  /** Resolves once every line put so far is on disk (however many are put meanwhile); rejects when writing them failed. */
  written(): Promise<void> {
    const upTo = this.changes;
    if (this.changesWritten >= upTo) return Promise.resolve();
    if (this.writing === undefined) return Promise.reject(this.writeFailure);
    return new Promise((resolve, reject) => this.waiters.push({ upTo, resolve, reject }));
  }

  /**
   * One page of the deliveries, in the order they were queued: at most `limit` after the id
   * `after` (from the first when absent; after where it would be when it has been forgotten), the
   * total, and the `after` of the next page (null at the last).
   */
  page(limit: number, after?: string): { total: number; next: string | null; records: Delivery[] } {
    const all = [...this.deliveries.values()];
    const start = after === undefined ? 0 : startAfter(all, after);
    const records = all.slice(start, start + limit);
    return { total: all.length, next: start + limit < all.length ? records.at(-1)!.delivery_id : null, records };
  }

  /**
   * Forgets every delivery, in memory at once and on disk in turn with the other writes: the file is
   * made anew after the write under way, so a line put meanwhile is neither lost nor glued to the old.
   */
  async clear(): Promise<void> {
    this.deliveries.clear();
    this.finished.clear();
    this.unwritten.clear();
    this.emptyFile = true;
    this.changes++;
    this.writing ??= this.writeAll();
    await this.written();
  }

  private keep(delivery: Delivery): void {
    const id = delivery.delivery_id;
    this.deliveries.set(id, delivery);
    if (!isFinished(delivery) || this.finished.has(id)) return;
    this.finished.add(id);
    for (const oldest of this.finished) {
      if (this.finished.size <= MAX_FINISHED) break;
      this.finished.delete(oldest);
      this.deliveries.delete(oldest);
    }
  }

  /** Writes the lines put, a group at a time, until none is left. */
  private async writeAll(): Promise<void> {
    try {
      while (this.unwritten.size > 0 || this.emptyFile) {
        const upTo = this.changes;
        const group = [...this.unwritten];
        this.unwritten.clear();
        const anew = this.emptyFile;
        this.emptyFile = false;
        this.settle(upTo, await this.writeGroup(group, anew));
      }
    } finally {
      this.writing = undefined;
    }
  }

  /** The changes up to `upTo` written (or not): their written() resolve (or reject). */
  private settle(upTo: number, ok: boolean): void {
    if (ok) this.changesWritten = upTo;
    for (let index = this.waiters.length - 1; index >= 0; index--) {
      const waiter = this.waiters[index]!;
      if (waiter.upTo > upTo) continue;
      this.waiters.splice(index, 1);
      if (ok) waiter.resolve();
      else waiter.reject(this.writeFailure);
    }
  }

  /**
   * Writes the log anew from the deliveries kept, which already hold the changes of the lines not
   * yet written. A delivery changed while this writes has its new line put, and so appended after:
   * the last line of each is still its state.
   */
  private async rewrite(): Promise<void> {
    const deliveries = [...this.deliveries.values()];
    await replaceFileInParts(this.path, partsOf(deliveries));
    this.linesInFile = deliveries.length;
    this.rewriteWhole = false;
  }

  /** True when written. */
  private async writeGroup(group: readonly Delivery[], anew: boolean): Promise<boolean> {
    try {
      if (anew || this.rewriteWhole || this.linesInFile + group.length > 2 * this.deliveries.size + REWRITE_SLACK_LINES) {
        await this.rewrite();
      } else {
        await this.lineFiles.append([{ path: this.path, bytes: Buffer.from(linesOf(group)) }]);
        this.linesInFile += group.length;
      }
      this.writeFailure = undefined;
      return true;
    } catch (error) {
      this.rewriteWhole = true;
      this.writeFailure = error;
      return false;
    }
  }
}

function* partsOf(deliveries: readonly Delivery[]): Generator<string> {
  for (let start = 0; start < deliveries.length; start += REWRITE_PART) {
    yield linesOf(deliveries.slice(start, start + REWRITE_PART));
  }
}

const linesOf = (deliveries: readonly Delivery[]) => deliveries.map((delivery) => `${JSON.stringify(delivery)}\n`).join('');

function startAfter(all: readonly Delivery[], after: string): number {
  const known = all.findIndex((delivery) => delivery.delivery_id === after);
  if (known !== -1) return known + 1;
  const later = all.findIndex((delivery) => delivery.delivery_id > after);
  return later === -1 ? all.length : later;
}

function isDelivery(value: unknown): value is Delivery {
  const delivery = value as Partial<Delivery> | null;
  return typeof delivery === 'object' && delivery !== null && typeof delivery.delivery_id === 'string' && typeof delivery.endpoint_id === 'string' && typeof delivery.payload === 'string' && Array.isArray(delivery.attempts) && ['pending', 'delivered', 'failed', 'cancelled'].includes(delivery.state as string);
}
