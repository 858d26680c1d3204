import { open, readFile, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_MODE, isMissing, makeDirectory, temporaryPathFor } from './files.js';
import { isRunning, processStartTime } from '../../core/files/processes.js';
import { KeyIndex } from './key-index.js';
import { appendWhole, type WriteOnce } from './line-files.js';

/** Where ingested events live: on disk in the data directory, with their idempotency keys indexed in memory. */

/** An event as GET /_emulator/events lists it. */
export interface StoredEvent {
  seq: number;
  idempotency_key: string | null;
  received_at: string;
  duplicates: number;
  event: unknown;
}

/**
 * Where one event is: the request it came in (its offset and length in the log), which of the
 * request's events it is (-1: the request was the event alone), when it arrived (ms), and how many
 * later events repeated its idempotency_key. Event `seq` has its record at (seq - 1) × RECORD_BYTES.
 */
interface EventRecord {
  body: number;
  bodyLength: number;
  element: number;
  receivedAt: number;
  duplicates: number;
}

const RECORD_BYTES = 32;
const FIELD = { body: 0, bodyLength: 8, element: 12, receivedAt: 16, duplicates: 24 } as const;

/** How many events a listing reads from disk at a time. */
const LISTING_SLICE = 1000;

/**
 * The events an instance ingested, on disk so that memory stays flat however many arrive: each
 * request's body appended to a log as it came (no parsing or re-serialising on the way in), and a
 * fixed-size record per event in an index, which is where a listing page starts reading. Only
 * the idempotency keys are indexed in memory, compactly (KeyIndex).
 *
 * The files are in the data directory's `events` folder, so an emulator restarted on it has every
 * event it acknowledged: the body is written before its records, and at the next start a record
 * cut short and a body with no records (a kill between the two) are cut off. Writes go to
 * positions the store computed, so one emulator owns the folder at a time (`owner` holds its
 * pid); a second one on the same directory while the first runs (two `csafe --emulator`
 * commands) keeps its events in files of its own, removed as soon as they are open. Requests take
 * turns; each is stored whole or not at all.
 */
export class EventStore {
  private queue: Promise<unknown> = Promise.resolve();
  private total = 0;
  private duplicates = 0;
  private logBytes = 0;
  /** Counts the clears: a listing under way when the events were cleared must not read on into events stored after. */
  private generation = 0;
  private readonly keys = new KeyIndex();

  private constructor(
    private readonly log: FileHandle,
    private readonly index: FileHandle,
    private readonly write?: WriteOnce,
    /** Gives the folder up at close; undefined for files of this instance alone. */
    private readonly release?: () => Promise<void>,
  ) {}

  static async open(dir: string, write?: WriteOnce): Promise<EventStore> {
    const folder = join(dir, 'events');
    await makeDirectory(folder);
    const release = await claim(join(folder, 'owner'));
    if (release === undefined) {
      const [log, index] = await Promise.all([openUnlinked(join(folder, 'log')), openUnlinked(join(folder, 'index'))]);
      return new EventStore(log, index, write);
    }
    try {
      const [log, index] = await Promise.all([openKept(join(folder, 'log')), openKept(join(folder, 'index'))]);
      const store = new EventStore(log, index, write, release);
      await store.recover();
      return store;
    } catch (error) {
      await release();
      throw error;
    }
  }

  /** How many events are stored, and how many repeats of them were counted, now. */
  counts(): { total: number; duplicates: number } {
    return { total: this.total, duplicates: this.duplicates };
  }

  /**
   * Stores a request's events (`body` holds them: a JSON array when `batch`, else the event alone).
   * An event whose idempotency_key an earlier one had, in this request or before, is counted as
   * that one's duplicate instead. Returns each event's seq (the earlier one's for a duplicate).
   */
  ingest(body: Buffer, events: readonly Record<string, unknown>[], batch: boolean, receivedAt: number): Promise<number[]> {
    return this.inTurn(() => this.store(body, events, batch, receivedAt));
  }

  /** The events with seq after..last, in order, read from disk a slice at a time: one array per request body read. */
  async *list(after: number, last: number): AsyncGenerator<StoredEvent[]> {
    const generation = this.generation;
    const cleared = () => this.generation !== generation;
    for (let from = after + 1; from <= last; from += LISTING_SLICE) {
      const records = await this.readRecords(from, Math.min(last, from + LISTING_SLICE - 1));
      // A reset meanwhile emptied the files (and new events may fill them again): the listing ends there.
      if (records === undefined || cleared()) return;
      for (const group of groupedByBody(records, from)) {
        // Bytes read after a clear may be another request's, cut anywhere: not JSON at all.
        const parsed = await this.readBody(group[0]!.record).catch((error: unknown) => {
          if (cleared()) return undefined;
          throw error;
        });
        if (parsed === undefined || cleared()) return;
        yield group.map(({ seq, record }) => listed(seq, record, elementOf(parsed, record)));
      }
    }
  }

  /** Forgets every event: POST /_emulator/reset, DELETE /_emulator/events. */
  clear(): Promise<void> {
    return this.inTurn(async () => {
      this.generation++;
      await Promise.all([this.log.truncate(0), this.index.truncate(0)]);
      this.total = 0;
      this.duplicates = 0;
      this.logBytes = 0;
      this.keys.clear();
    });
  }

  close(): Promise<void> {
    return this.inTurn(async () => {
      await Promise.all([this.log.close(), this.index.close()]);
      await this.release?.();
    });
  }

  /**
   * Picks up what an earlier emulator stored: whole records only, each with its whole body (a
   * record cut short, and log bytes after the last record's body, are what a kill mid-append
   * leaves); then the idempotency keys and the duplicate count, read back from the files.
   */
  private async recover(): Promise<void> {
    const [logSize, indexSize] = await Promise.all([this.log.stat(), this.index.stat()]).then((stats) => stats.map((stat) => stat.size) as [number, number]);
    let total = Math.floor(indexSize / RECORD_BYTES);
    let end = 0;
    for (; total > 0; total--) {
      const [last] = (await this.readRecords(total, total)) ?? [];
      end = last === undefined ? Infinity : last.body + last.bodyLength;
      if (end <= logSize) break;
    }
    if (total === 0) end = 0;
    await Promise.all([this.index.truncate(total * RECORD_BYTES), this.log.truncate(end)]);
    this.total = total;
    this.logBytes = end;
    for (let from = 1; from <= total; from += LISTING_SLICE) {
      const records = (await this.readRecords(from, Math.min(total, from + LISTING_SLICE - 1))) ?? [];
      for (const group of groupedByBody(records, from)) {
        const parsed = await this.readBody(group[0]!.record);
        for (const { seq, record } of group) {
          const key = keyOf(elementOf(parsed, record));
          if (key !== null) this.keys.add(key, seq);
          this.duplicates += record.duplicates;
        }
      }
    }
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const done = this.queue.then(work);
    this.queue = done.catch(() => undefined);
    return done;
  }

  private async store(body: Buffer, events: readonly Record<string, unknown>[], batch: boolean, receivedAt: number): Promise<number[]> {
    const seqs: number[] = [];
    const fresh: EventRecord[] = [];
    const freshKeys = new Map<string, number>();
    const repeats = new Map<number, number>();
    const lookUp = this.keyLookUp();
    for (const [element, event] of events.entries()) {
      const key = keyOf(event);
      let earlier = key === null ? undefined : freshKeys.get(key);
      if (key !== null && earlier === undefined) {
        // Most keys are new: no candidate, and no promise to wait for.
        const candidates = this.keys.candidates(key);
        if (candidates.length > 0) earlier = await lookUp(key, candidates);
      }
      if (earlier !== undefined) {
        seqs.push(earlier);
        repeats.set(earlier, (repeats.get(earlier) ?? 0) + 1);
        continue;
      }
      const seq = this.total + fresh.length + 1;
      fresh.push({ body: this.logBytes, bodyLength: body.length, element: batch ? element : -1, receivedAt, duplicates: 0 });
      if (key !== null) freshKeys.set(key, seq);
      seqs.push(seq);
    }
    const storedBefore = this.total;
    if (fresh.length > 0) await this.append(body, fresh, repeats);
    for (const [key, seq] of freshKeys) this.keys.add(key, seq);
    for (const [seq, count] of repeats) {
      if (seq <= storedBefore) await this.addDuplicates(seq, count);
      this.duplicates += count;
    }
    return seqs;
  }

  /** The body once, then the records: when the records cannot be written, the body is taken back. */
  private async append(body: Buffer, fresh: EventRecord[], repeats: ReadonlyMap<number, number>): Promise<void> {
    const records = Buffer.alloc(fresh.length * RECORD_BYTES);
    fresh.forEach((record, at) => {
      // Repeats within this request of its own new events are known before they are written.
      writeRecord(records, at * RECORD_BYTES, record, repeats.get(this.total + at + 1) ?? 0);
    });
    await appendWhole(this.log, body, this.logBytes, this.write);
    try {
      await appendWhole(this.index, records, this.total * RECORD_BYTES, this.write);
    } catch (error) {
      await this.log.truncate(this.logBytes);
      throw error;
    }
    this.logBytes += body.length;
    this.total += fresh.length;
  }

  /**
   * Finds the stored event with this key among KeyIndex's candidates, reading each from disk.
   * The last body read is kept: a retried request repeats the keys of one earlier request.
   */
  private keyLookUp(): (key: string, candidates: readonly number[]) => Promise<number | undefined> {
    let last: { at: number; parsed: unknown } | undefined;
    return async (key, candidates) => {
      for (const seq of candidates) {
        const [record] = (await this.readRecords(seq, seq)) ?? [];
        if (record === undefined) continue;
        if (last?.at !== record.body) last = { at: record.body, parsed: await this.readBody(record) };
        if (keyOf(elementOf(last.parsed, record)) === key) return seq;
      }
      return undefined;
    };
  }

  private async addDuplicates(seq: number, count: number): Promise<void> {
    const position = (seq - 1) * RECORD_BYTES + FIELD.duplicates;
    const field = Buffer.alloc(4);
    await this.index.read(field, 0, 4, position);
    field.writeUInt32LE(field.readUInt32LE(0) + count, 0);
    await this.index.write(field, 0, 4, position);
  }

  /** The records of events first..last; undefined when the index no longer has them all. */
  private async readRecords(first: number, last: number): Promise<EventRecord[] | undefined> {
    const bytes = await readExactly(this.index, (first - 1) * RECORD_BYTES, (last - first + 1) * RECORD_BYTES);
    if (bytes === undefined) return undefined;
    return Array.from({ length: last - first + 1 }, (_, at) => readRecord(bytes, at * RECORD_BYTES));
  }

  private async readBody(record: EventRecord): Promise<unknown> {
    const bytes = await readExactly(this.log, record.body, record.bodyLength);
    return bytes === undefined ? undefined : (JSON.parse(bytes.toString('utf8')) as unknown);
  }
}

/**
 * Takes the folder whose `owner` file this is for this process: free, or left by a process that
 * is gone (a kill). Undefined while another live emulator holds it. Returns how to give it up.
 */
async function claim(owner: string): Promise<(() => Promise<void>) | undefined> {
  const self = await ownerLine(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(owner, self, { flag: 'wx', mode: FILE_MODE });
      return () => unlink(owner).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // This process itself, same start: another emulator in this process holds it (tests start several).
    if (await holdsIt(await readFile(owner, 'utf8').catch(() => ''))) return undefined;
    await unlink(owner).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
  }
  return undefined;
}

/** "pid start": the pid, and when that process started, which tells it from a later one given the same pid. */
const ownerLine = async (pid: number) => [pid, await processStartTime(pid)].filter((part) => part !== undefined).join(' ');

/**
 * Whether the process an owner line names still runs. Killed with -9 and not yet waited for, it
 * still takes signal 0; a restarted container's emulator often has the pid of the one killed (1,
 * say) but not its start time. Either way the events it stored were hidden, and those sent next
 * kept in files gone at exit. A line of a pid alone (an older emulator's) is judged by the pid.
 */
async function holdsIt(line: string): Promise<boolean> {
  const [pidText = '', started] = line.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid)) return false;
  return started === undefined || (await processStartTime(pid)) === started;
}

/** A file kept across restarts: created private when new, read and written at positions. */
const openKept = (path: string) => open(path, 'a+', FILE_MODE).then(async (created) => {
  await created.close();
  return open(path, 'r+');
});

/** A file of this instance's alone: created private, and unlinked at once, so it goes when the process does. */
async function openUnlinked(name: string): Promise<FileHandle> {
  const path = temporaryPathFor(name);
  const file = await open(path, 'wx+', FILE_MODE);
  await unlink(path);
  return file;
}

async function readExactly(file: FileHandle, position: number, length: number): Promise<Buffer | undefined> {
  const bytes = Buffer.alloc(length);
  const { bytesRead } = await file.read(bytes, 0, length, position);
  return bytesRead === length ? bytes : undefined;
}

const keyOf = (event: unknown) => {
  const key = (event as Record<string, unknown> | undefined)?.idempotency_key;
  return typeof key === 'string' ? key : null;
};

const elementOf = (parsed: unknown, record: EventRecord) => (record.element === -1 ? parsed : (parsed as unknown[])[record.element]);

const listed = (seq: number, record: EventRecord, event: unknown): StoredEvent => ({
  seq,
  idempotency_key: keyOf(event),
  received_at: new Date(record.receivedAt).toISOString(),
  duplicates: record.duplicates,
  event,
});

/** Records in runs that share one request body, each with its seq. */
function groupedByBody(records: readonly EventRecord[], firstSeq: number): Array<Array<{ seq: number; record: EventRecord }>> {
  const groups: Array<Array<{ seq: number; record: EventRecord }>> = [];
  records.forEach((record, at) => {
    const current = groups.at(-1);
    const entry = { seq: firstSeq + at, record };
    if (current !== undefined && current[0]!.record.body === record.body) current.push(entry);
    else groups.push([entry]);
  });
  return groups;
}

function writeRecord(bytes: Buffer, at: number, record: EventRecord, duplicates: number): void {
  bytes.writeDoubleLE(record.body, at + FIELD.body);
  bytes.writeUInt32LE(record.bodyLength, at + FIELD.bodyLength);
  bytes.writeInt32LE(record.element, at + FIELD.element);
  bytes.writeDoubleLE(record.receivedAt, at + FIELD.receivedAt);
  bytes.writeUInt32LE(duplicates, at + FIELD.duplicates);
}

function readRecord(bytes: Buffer, at: number): EventRecord {
  return {
    body: bytes.readDoubleLE(at + FIELD.body),
    bodyLength: bytes.readUInt32LE(at + FIELD.bodyLength),
    element: bytes.readInt32LE(at + FIELD.element),
    receivedAt: bytes.readDoubleLE(at + FIELD.receivedAt),
    duplicates: bytes.readUInt32LE(at + FIELD.duplicates),
  };
}
