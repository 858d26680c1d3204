import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StreamPart } from '../../schemas/streams.js';
import type { TextLabel } from '../classifier.js';
import { DIRECTORY_MODE, digestName, isMissing, readJsonFile, replaceFile } from './files.js';
import { LineFiles, wholeLinesOf, type LineAppend } from './line-files.js';

/** Where livestreams and their parts live: on disk, appended to, never held in memory. */

/** A part as the emulator keeps it: as it was sent, with what the classifier said of it. */
export type StoredPart = StreamPart & { labels: TextLabel[] };

/** A stream as it stood at one moment: its address, and how much of its parts file was complete then. */
export interface StreamSnapshot {
  id: string;
  stream_url: string | null;
  partsFile: string;
  partsBytes: number;
}

const NEWLINE = 0x0a;
const COMMA = 0x2c;

/**
 * Livestreams on disk, under the data directory beside namespace data, so a restarted emulator
 * (same directory) still has them. Parts are appended to one JSONL file per stream and never held
 * in memory, however many arrive.
 *
 * Layout: streams/<namespace digest>/ids (the namespace's stream ids as JSON strings, first seen
 * first), streams/<namespace digest>/<id digest>/{stream.json (its address, once watched), parts.jsonl}.
 *
 * Every change, and every look at a stream, waits its turn in one queue: the lines of concurrent
 * requests never interleave, a stream is listed once however many requests create it together, and
 * a snapshot never counts half of an append. A request is stored whole or not at all (see LineFiles).
 */
export class StreamStore {
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Each namespace's listed stream ids, read from its ids file when first needed. Whether a stream
   * is listed is asked of the list itself, not of whether its directory exists: an emulator killed
   * between making a stream's directory (or storing its first parts) and listing it leaves a stream
   * the next request for it must still list.
   */
  private readonly listed = new Map<string, Set<string>>();

  private constructor(
    private readonly root: string,
    private readonly files: LineFiles,
  ) {}

  static async open(dataDir: string): Promise<StreamStore> {
    const root = join(dataDir, 'streams');
    await mkdir(root, { recursive: true, mode: DIRECTORY_MODE });
    return new StreamStore(root, new LineFiles());
  }

  /** Monitors the stream at this address; watching it again replaces the address. */
  watch(namespace: string, id: string, streamUrl: string): Promise<void> {
    return this.inTurn(() =>
      this.changeStream(namespace, id, async (listing) => {
        await replaceFile(this.streamFile(namespace, id, 'stream.json'), JSON.stringify({ namespace, id, stream_url: streamUrl }));
        await this.files.append(listing);
      }),
    );
  }

  /** Appends parts in the order given; the stream is created if this is the first that is heard of it. */
  append(namespace: string, id: string, parts: readonly StoredPart[]): Promise<void> {
    const lines = Buffer.from(parts.map((part) => `${JSON.stringify(part)}\n`).join(''));
    return this.inTurn(() =>
      this.changeStream(namespace, id, (listing) => this.files.append([{ path: this.streamFile(namespace, id, 'parts.jsonl'), bytes: lines }, ...listing])),
    );
  }

  /** The stream as it stands now, or undefined for one never watched and never sent parts. */
  snapshot(namespace: string, id: string): Promise<StreamSnapshot | undefined> {
    return this.inTurn(async () => {
      const exists = await stat(this.streamFile(namespace, id, '')).then(() => true, ifMissing(false));
      if (!exists) return undefined;
      const watched = await readJsonFile<{ stream_url: string }>(this.streamFile(namespace, id, 'stream.json'));
      const partsFile = this.streamFile(namespace, id, 'parts.jsonl');
      await this.files.whole(partsFile);
      const partsBytes = await stat(partsFile).then((info) => info.size, ifMissing(0));
      return { id, stream_url: watched?.stream_url ?? null, partsFile, partsBytes };
    });
  }

  /** The namespace's stream ids, in the order they were first seen. */
  ids(namespace: string): Promise<string[]> {
    return this.inTurn(() => this.readIds(namespace));
  }

  /** Forgets every stream: POST /_emulator/reset. */
  clear(): Promise<void> {
    return this.inTurn(async () => {
      await rm(this.root, { recursive: true, force: true });
      this.files.forget();
      this.listed.clear();
      await mkdir(this.root, { recursive: true, mode: DIRECTORY_MODE });
    });
  }

  /** Waits for the changes under way, so the directory can be removed after. */
  async settle(): Promise<void> {
    await this.queue;
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const done = this.queue.then(work);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /**
   * Creates the stream's directory when it is new, and runs `store`, which must append `listing`
   * (the stream's id for the namespace's list when it is not listed yet; else nothing) with what
   * it stores. When `store` fails, a stream it created is removed again: a failed request leaves nothing.
   */
  private async changeStream(namespace: string, id: string, store: (listing: readonly LineAppend[]) => Promise<void>): Promise<void> {
    const directory = this.streamFile(namespace, id, '');
    // A recursive mkdir answers undefined when the directory was already there.
    const created = (await mkdir(directory, { recursive: true, mode: DIRECTORY_MODE })) !== undefined;
    const listed = await this.listedIds(namespace);
    const listing = listed.has(id) ? [] : [{ path: this.idsFile(namespace), bytes: Buffer.from(`${JSON.stringify(id)}\n`) }];
    try {
      await store(listing);
    } catch (error) {
      if (created) await rm(directory, { recursive: true, force: true });
      throw error;
    }
    listed.add(id);
  }

  private async listedIds(namespace: string): Promise<Set<string>> {
    let ids = this.listed.get(namespace);
    if (ids === undefined) {
      ids = new Set(await this.readIds(namespace));
      this.listed.set(namespace, ids);
    }
    return ids;
  }

  /**
   * Each id once: another emulator on the same directory (two `csafe --emulator` commands) lists
   * streams too, and this one's list of the namespace, read once, does not see them.
   */
  private async readIds(namespace: string): Promise<string[]> {
    await this.files.whole(this.idsFile(namespace));
    const text = await readFile(this.idsFile(namespace), 'utf8').catch(ifMissing(''));
    return [...new Set(wholeLinesOf(text).map((line) => JSON.parse(line) as string))];
  }

  private idsFile = (namespace: string) => join(this.root, digestName(namespace), 'ids');
  private streamFile = (namespace: string, id: string, name: string) => join(this.root, digestName(namespace), digestName(id), name);
}

/** A failure handler: `fallback` when the file is not there, the failure itself otherwise. */
const ifMissing =
  <T>(fallback: T) =>
  (error: unknown): T => {
    if (isMissing(error)) return fallback;
    throw error;
  };

/**
 * The parts of a snapshot as the members of a JSON array, read from disk as they are sent: each
 * stored line is one part's JSON, and JSON text never holds a raw newline, so every newline is
 * a separator and becomes a comma, except the last.
 */
export async function* partsAsJsonMembers({ partsFile, partsBytes }: StreamSnapshot): AsyncGenerator<Buffer> {
  if (partsBytes === 0) return;
  let heldBack: Buffer | undefined;
  for await (const chunk of createReadStream(partsFile, { end: partsBytes - 1 })) {
    const bytes = chunk as Buffer;
    if (heldBack !== undefined) yield heldBack;
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) bytes[at] = COMMA;
    // The last byte of all is the newline after the last part: held back, and dropped at the end.
    heldBack = bytes.subarray(-1);
    if (bytes.length > 1) yield bytes.subarray(0, -1);
  }
}
