import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BackgroundWork } from './background.js';
import { createFileOnce, DIRECTORY_MODE, readJsonFile, replaceFile } from './files.js';
import { isIdOf, newId } from './ids.js';

/** Where the older operations (decisions, older imports, batches) keep their records and files. */

/** Where one kind of older operation keeps its records: a folder of the data directory, its ids' prefix, its files' extension. */
export interface JobKind {
  area: string;
  idPrefix: string;
  extension: string;
}

/** The object-store key of a record's upload: `<area>/<id>.<extension>`. */
export const uploadKey = (kind: JobKind, id: string) => `${kind.area}/${id}.${kind.extension}`;

/**
 * The records of one kind of older operation (imports, batches, decisions) on disk, one small file each, so a
 * restarted emulator (same directory) answers for earlier ids and URLs and nothing grows in memory.
 *
 * Layout: <area>/records/<id>.json, <area>/uploads/<id>.<ext> (the latest upload),
 * <area>/results/<id>.<ext> (what processing produced, e.g. a batch's result CSV). A decision has
 * only its record.
 */
export class JobStore<R> {
  private readonly background = new BackgroundWork();
  /** Records this instance has started processing: a record found mid-way on disk was left by an earlier one. */
  private readonly started = new Set<string>();

  private constructor(
    private readonly root: string,
    private readonly kind: JobKind,
  ) {}

  static async open<R>(dataDir: string, kind: JobKind): Promise<JobStore<R>> {
    const store = new JobStore<R>(join(dataDir, kind.area), kind);
    await store.createAreas();
    return store;
  }

  newId = () => newId(this.kind.idPrefix);

  save(id: string, record: R): Promise<void> {
    return replaceFile(this.recordPath(id), JSON.stringify(record));
  }

  /** The record, or undefined for an id this store never gave out. */
  async get(id: string): Promise<R | undefined> {
    return isIdOf(this.kind.idPrefix, id) ? readJsonFile<R>(this.recordPath(id)) : undefined;
  }

  /** Saves a record only when its id has none yet: of several saves at once the first wins. The record kept is returned. */
  async saveFirst(id: string, record: R): Promise<R> {
    if (await createFileOnce(this.recordPath(id), JSON.stringify(record))) return record;
    return (await this.get(id)) ?? record;
  }

  /**
   * One page of the records, by id: at most `limit` after the id `after` (from the first when
   * absent), the total, and the `after` of the next page (null at the last). What an inspection
   * route lists: its answer is bounded however many records there are.
   */
  async page(limit: number, after?: string): Promise<{ total: number; next: string | null; records: R[] }> {
    const ids = (await readdir(join(this.root, 'records'))).map((name) => name.replace(/\.json$/, '')).filter((id) => isIdOf(this.kind.idPrefix, id)).sort();
    const start = after === undefined ? 0 : ids.findIndex((id) => id > after);
    const chosen = start < 0 ? [] : ids.slice(start, start + limit);
    const records = (await Promise.all(chosen.map((id) => readJsonFile<R>(this.recordPath(id))))).filter((record): record is Awaited<R> => record !== undefined) as R[];
    const next = start >= 0 && start + limit < ids.length ? chosen.at(-1)! : null;
    return { total: ids.length, next, records };
  }

  uploadPath = (id: string) => join(this.root, 'uploads', `${id}.${this.kind.extension}`);
  resultPath = (id: string) => join(this.root, 'results', `${id}.${this.kind.extension}`);

  /**
   * Processing of one record in the background, once per instance: called again for a record whose
   * processing has ended (or was stopped), it does nothing. The work records its own failures.
   */
  runInBackground(id: string, work: (signal: AbortSignal) => Promise<void>): void {
    if (this.started.has(id)) return;
    this.started.add(id);
    this.background.run(id, work);
  }

  /** Stops the processing of one record and waits until it has stopped. */
  stopProcessing = (id: string) => this.background.cancel(id);

  /** Forgets every record: POST /_emulator/reset. */
  async clear(): Promise<void> {
    await this.background.stop();
    this.started.clear();
    await rm(this.root, { recursive: true, force: true });
    await this.createAreas();
  }

  close = () => this.background.stop();

  private recordPath = (id: string) => join(this.root, 'records', `${id}.json`);

  private createAreas = () => Promise.all(['records', 'uploads', 'results'].map((name) => mkdir(join(this.root, name), { recursive: true, mode: DIRECTORY_MODE })));
}
