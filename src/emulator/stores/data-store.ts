import { randomBytes } from 'node:crypto';
import { link, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetRemoval, removeAtExit } from '../../core/files/exit-removal.js';
import type { NamespaceSchema } from '../../schemas/data.js';
import { BackgroundWork } from './background.js';
import type { StoredRequest } from './data-records.js';
import { claimDataDir, SIGNING_SECRET, signingSecretOf } from './data-dir.js';
import { DIRECTORY_MODE, FILE_MODE, digestName, isMissing, readJsonFile, replaceFile, temporaryPathFor } from './files.js';
import { isRequestId } from './ids.js';
import { LineFiles, wholeLinesOf } from './line-files.js';

/** Where namespace data lives: on disk in the data directory, a small file per setting and per request. */

/** One line of a namespace's object log: the ids an add request stored, or an import whose objects were all stored. */
export type ObjectLogEntry = { at: number } & ({ ids: string[] } | { import: string });

const AREAS = ['namespaces', 'requests', 'uploads', 'ingested'] as const;

/**
 * Namespace data on disk, one small file per namespace setting and per request record, so each
 * API call does O(1) work and a restarted emulator (same directory) answers for earlier ids and
 * URLs. Nothing is loaded at start and nothing grows in memory, however much data arrives.
 *
 * Layout: signing-secret, namespaces/<digest>/{settings.json,requests,objects}, requests/<id>.json,
 * uploads/<id>.jsonl (the latest upload), ingested/<id>.jsonl (the upload that was processed).
 */
export class DataStore {
  private readonly background = new BackgroundWork();
  /** Imports whose upload is arriving now: only this instance can know, so it is not on disk. */
  private readonly receiving = new Set<string>();
  /** The namespaces' request lists and object logs: appended a request at a time, whole or not at all. */
  private readonly files = new LineFiles();

  private constructor(
    /** The data directory, which the stream store shares. */
    readonly root: string,
    /** Keys the pre-signed URLs; kept with the data, so earlier URLs stay valid after a restart. */
    readonly secret: Buffer,
    private readonly removeOnClose: boolean,
  ) {}

  /** Without a directory, the data lives in a private temporary one that close() removes. */
  static async open(dataDir: string | undefined): Promise<DataStore> {
    // Removed by close(), or as the process exits when it leaves without closing (a second Ctrl-C).
    const root = dataDir ?? removeAtExit(await mkdtemp(join(tmpdir(), 'csafe-emulator-')));
    await claimDataDir(root);
    await createAreas(root);
    return new DataStore(root, await loadSecret(join(root, SIGNING_SECRET)), dataDir === undefined);
  }

  async settings(namespace: string): Promise<NamespaceSchema> {
    return (await readJsonFile<{ schema: NamespaceSchema }>(this.namespaceFile(namespace, 'settings.json')))?.schema ?? {};
  }

  async putSettings(namespace: string, schema: NamespaceSchema): Promise<void> {
    await this.namespaceDirectory(namespace);
    await replaceFile(this.namespaceFile(namespace, 'settings.json'), JSON.stringify({ namespace, schema }));
  }

  /**
   * A new request: its record, its id appended to the namespace's list (read by review look-ups)
   * and, for an add request, the objects it stored to the namespace's object log. All or nothing:
   * when any of it fails, the rest is taken back, and the request can answer an error.
   */
  async addRequest(record: StoredRequest, objects?: ObjectLogEntry): Promise<void> {
    await this.saveRequest(record);
    try {
      await this.namespaceDirectory(record.namespace);
      const listed = { path: this.namespaceFile(record.namespace, 'requests'), bytes: Buffer.from(`${record.request_id}\n`) };
      await this.files.append(objects === undefined ? [listed] : [listed, this.objectLogLine(record.namespace, objects)]);
    } catch (error) {
      await rm(this.requestFile(record.request_id), { force: true });
      throw error;
    }
  }

  saveRequest(record: StoredRequest): Promise<void> {
    return replaceFile(this.requestFile(record.request_id), JSON.stringify(record));
  }

  async request(requestId: string): Promise<StoredRequest | undefined> {
    return isRequestId(requestId) ? readJsonFile<StoredRequest>(this.requestFile(requestId)) : undefined;
  }

  /** The namespace's request ids, newest first. */
  async requestIds(namespace: string): Promise<string[]> {
    return (await this.lines(this.namespaceFile(namespace, 'requests'))).reverse();
  }

  /**
   * Upserts: records that these objects (by id) were stored in the namespace at `at`. Each entry
   * of the log is one add request's processed ids, or one succeeded import (its ids are in its
   * ingested file), so an import of millions of objects costs one line.
   */
  async logObjects(namespace: string, entry: ObjectLogEntry): Promise<void> {
    await this.namespaceDirectory(namespace);
    await this.files.append([this.objectLogLine(namespace, entry)]);
  }

  /** The namespace's object log, oldest first. */
  async objectLog(namespace: string): Promise<ObjectLogEntry[]> {
    return (await this.lines(this.namespaceFile(namespace, 'objects'))).map((line) => JSON.parse(line) as ObjectLogEntry);
  }

  /** Marks an import's upload as arriving while `work` runs (its record reads `uploading`). */
  async receiveUpload<T>(requestId: string, work: () => Promise<T>): Promise<T> {
    this.receiving.add(requestId);
    try {
      return await work();
    } finally {
      this.receiving.delete(requestId);
    }
  }

  isReceiving = (requestId: string) => this.receiving.has(requestId);

  uploadPath = (requestId: string) => join(this.root, 'uploads', `${requestId}.jsonl`);
  ingestedPath = (requestId: string) => join(this.root, 'ingested', `${requestId}.jsonl`);

  /** Runs background work once per key at a time (see BackgroundWork); clear() and close() abort it and wait for it. */
  runInBackground(key: string, work: (signal: AbortSignal) => Promise<void>): void {
    this.background.run(key, work);
  }

  /** Forgets all data (not the signing secret): POST /_emulator/reset. */
  async clear(): Promise<void> {
    await this.background.stop();
    await Promise.all(AREAS.map((area) => rm(join(this.root, area), { recursive: true, force: true, maxRetries: 5 })));
    this.files.forget();
    await createAreas(this.root);
  }

  async close(): Promise<void> {
    await this.background.stop();
    // A request the closed server was still serving may write a file while the tree is removed
    // (ENOTEMPTY): node's rm tries again after it.
    if (this.removeOnClose) {
      await rm(this.root, { recursive: true, force: true, maxRetries: 5 });
      forgetRemoval(this.root);
    }
  }

  private async lines(path: string): Promise<string[]> {
    await this.files.whole(path);
    try {
      // An append of this instance may be under way: its line is not there yet.
      return wholeLinesOf(await readFile(path, 'utf8'));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  private objectLogLine = (namespace: string, entry: ObjectLogEntry) => ({ path: this.namespaceFile(namespace, 'objects'), bytes: Buffer.from(`${JSON.stringify(entry)}\n`) });

  private requestFile = (requestId: string) => join(this.root, 'requests', `${requestId}.json`);

  private namespaceFile = (namespace: string, name: string) => join(this.root, 'namespaces', digestName(namespace), name);

  private namespaceDirectory = (namespace: string) => mkdir(this.namespaceFile(namespace, ''), { recursive: true, mode: DIRECTORY_MODE });
}

const createAreas = (root: string) => Promise.all(AREAS.map((area) => mkdir(join(root, area), { recursive: true, mode: DIRECTORY_MODE })));

/** Created once per data directory; link() makes the creation atomic when two emulators start on one directory. */
async function loadSecret(path: string): Promise<Buffer> {
  const temporary = temporaryPathFor(path);
  await writeFile(temporary, randomBytes(32).toString('hex'), { mode: FILE_MODE });
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary);
  }
  return signingSecretOf(await readFile(path, 'utf8'));
}
