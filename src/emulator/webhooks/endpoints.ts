import { randomBytes } from 'node:crypto';
import { readJsonFile, replaceFile } from '../stores/files.js';

/** An endpoint events are sent to: all of them, or only the types listed. */
export interface Endpoint {
  endpoint_id: string;
  url: string;
  /** The event types it takes; null: every type. */
  events: string[] | null;
  created_at: string;
  /**
   * A leased endpoint (what `csafe webhooks listen` registers): how long each renewal extends it,
   * and when it is removed unless renewed first. So a listener killed before it could remove its
   * endpoint (kill -9, a closed laptop) leaves nothing behind for long.
   */
  lease_seconds?: number;
  expires_at?: string;
}

/** Where the endpoints are kept, which are given at start, the clock, and what removes an endpoint whose lease ran out. */
export interface EndpointsOptions {
  path: string;
  initialUrls: readonly string[];
  now: () => number;
  expired: (id: string) => void;
}

/**
 * The endpoints registered with the emulator, kept in a file of the data directory: those given
 * at start (--webhook-url), registered when no endpoint has their URL, and those added at run
 * time, for good or on a lease. Another emulator on the same directory (two `csafe --emulator`
 * commands) writes the same file: each save applies this instance's own changes to the file as it
 * stands, so neither loses the endpoints the other added, nor brings back those it removed.
 */
export class Endpoints {
  private endpoints: Endpoint[] = [];
  /** Endpoints this instance added (or renewed) that no save has written yet: the others it holds are in the file until someone removes them. */
  private readonly unwritten = new Set<string>();
  /** Endpoints this instance removed that no save has taken out of the file yet. */
  private readonly removed = new Set<string>();
  /** When each leased endpoint's lease runs out. */
  private readonly leases = new Map<string, NodeJS.Timeout>();
  private saving: Promise<void> = Promise.resolve();

  private constructor(private readonly options: EndpointsOptions) {}

  /** The endpoints as saved, less those whose lease ran out while no emulator ran. */
  static async open(options: EndpointsOptions): Promise<Endpoints> {
    const endpoints = new Endpoints(options);
    const now = options.now();
    endpoints.endpoints = (await readEndpoints(options.path)).filter((endpoint) => !hasExpired(endpoint, now));
    for (const endpoint of endpoints.endpoints) endpoints.watchLease(endpoint);
    await endpoints.registerInitialUrls();
    return endpoints;
  }

  list(): Endpoint[] {
    return [...this.endpoints];
  }

  has(id: string): boolean {
    return this.endpoints.some((endpoint) => endpoint.endpoint_id === id);
  }

  /** The endpoints that take events of this type. */
  targetsOf(type: string): Endpoint[] {
    return this.endpoints.filter((endpoint) => endpoint.events === null || endpoint.events.includes(type));
  }

  /** One more endpoint; with `leaseSeconds`, removed that long from now unless renewed. */
  async add(url: string, events: string[] | null, leaseSeconds?: number): Promise<Endpoint> {
    const now = this.options.now();
    const endpoint: Endpoint = {
      endpoint_id: `ep_${randomBytes(8).toString('hex')}`,
      url,
      events,
      created_at: new Date(now).toISOString(),
      ...(leaseSeconds !== undefined && { lease_seconds: leaseSeconds, expires_at: new Date(now + leaseSeconds * 1000).toISOString() }),
    };
    this.endpoints.push(endpoint);
    this.unwritten.add(endpoint.endpoint_id);
    this.watchLease(endpoint);
    try {
      await this.save();
    } catch (error) {
      // Not saved (a full disk): the request fails, so the endpoint must not be sent to either, or a retry would register it twice.
      this.endpoints = this.endpoints.filter((kept) => kept !== endpoint);
      this.unwritten.delete(endpoint.endpoint_id);
      this.stopWatching(endpoint.endpoint_id);
      throw error;
    }
    return endpoint;
  }

  /** Extends a leased endpoint's lease by its length from now: the endpoint, or undefined when there is none such. An endpoint without a lease is returned as it is. */
  async renew(id: string): Promise<Endpoint | undefined> {
    const endpoint = this.endpoints.find((each) => each.endpoint_id === id);
    if (endpoint?.lease_seconds === undefined) return endpoint;
    endpoint.expires_at = new Date(this.options.now() + endpoint.lease_seconds * 1000).toISOString();
    this.unwritten.add(id);
    this.watchLease(endpoint);
    await this.save();
    return endpoint;
  }

  /** False when there is no such endpoint. */
  async remove(id: string): Promise<boolean> {
    const at = this.endpoints.findIndex((endpoint) => endpoint.endpoint_id === id);
    if (at === -1) return false;
    const [endpoint] = this.endpoints.splice(at, 1) as [Endpoint];
    const wasUnwritten = this.unwritten.delete(id);
    this.removed.add(id);
    this.stopWatching(id);
    try {
      await this.save();
    } catch (error) {
      // Not saved (a full disk): the request fails and the file still has the endpoint, so it stays, for a retry to remove.
      // One whose lease ran out stays removed: no start takes it back, and watched again it would expire again at once.
      if (!hasExpired(endpoint, this.options.now())) this.restore(endpoint, at, wasUnwritten);
      throw error;
    }
    return true;
  }

  /** Forgets every endpoint but those given at start: POST /_emulator/reset. */
  async clear(): Promise<void> {
    this.close();
    for (const endpoint of this.endpoints) this.removed.add(endpoint.endpoint_id);
    this.endpoints = [];
    this.unwritten.clear();
    await this.registerInitialUrls();
  }

  /** Stops watching the leases: the emulator is stopping (they are watched again at the next start). */
  close(): void {
    for (const id of [...this.leases.keys()]) this.stopWatching(id);
  }

  private restore(endpoint: Endpoint, at: number, unwritten: boolean): void {
    this.endpoints.splice(at, 0, endpoint);
    this.removed.delete(endpoint.endpoint_id);
    if (unwritten) this.unwritten.add(endpoint.endpoint_id);
    this.watchLease(endpoint);
  }

  private watchLease(endpoint: Endpoint): void {
    if (endpoint.expires_at === undefined) return;
    this.stopWatching(endpoint.endpoint_id);
    const timer = setTimeout(() => {
      this.leases.delete(endpoint.endpoint_id);
      this.options.expired(endpoint.endpoint_id);
    }, Math.max(0, Date.parse(endpoint.expires_at) - this.options.now()));
    timer.unref();
    this.leases.set(endpoint.endpoint_id, timer);
  }

  private stopWatching(id: string): void {
    clearTimeout(this.leases.get(id));
    this.leases.delete(id);
  }

  private async registerInitialUrls(): Promise<void> {
    const known = new Set(this.endpoints.map((endpoint) => endpoint.url));
    for (const url of this.options.initialUrls) {
      if (known.has(url)) continue;
      known.add(url);
      await this.add(url, null);
    }
    if (this.options.initialUrls.length === 0) await this.save();
  }

  /** Saves in turn, each the endpoints as they stand when it writes: renames landing out of order cannot leave an older list in the file. */
  private save(): Promise<void> {
    const saved = this.saving.catch(() => undefined).then(() => this.write());
    this.saving = saved;
    return saved;
  }

  /**
   * This instance's changes applied to the file as it stands. The read and the write are each one
   * synchronous step, so another emulator's save can land only in the moment between them.
   */
  private async write(): Promise<void> {
    const onDisk = await readEndpoints(this.options.path);
    const onDiskIds = new Set(onDisk.map((endpoint) => endpoint.endpoint_id));
    // One this instance holds, neither new nor renewed here, and gone from the file: another emulator removed it.
    for (const endpoint of this.endpoints.filter(({ endpoint_id: id }) => !onDiskIds.has(id) && !this.unwritten.has(id))) {
      this.endpoints = this.endpoints.filter((kept) => kept !== endpoint);
      this.stopWatching(endpoint.endpoint_id);
    }
    const held = new Set(this.endpoints.map((endpoint) => endpoint.endpoint_id));
    const now = this.options.now();
    const othersAdded = onDisk.filter((endpoint) => !held.has(endpoint.endpoint_id) && !this.removed.has(endpoint.endpoint_id) && !hasExpired(endpoint, now));
    const written = new Set([...this.unwritten, ...this.removed]);
    await replaceFile(this.options.path, JSON.stringify([...this.endpoints, ...othersAdded]));
    for (const id of written) {
      this.unwritten.delete(id);
      this.removed.delete(id);
    }
  }
}

/** Whether a leased endpoint's lease has run out by `now`; one registered for good never has. */
const hasExpired = (endpoint: Endpoint, now: number) => endpoint.expires_at !== undefined && Date.parse(endpoint.expires_at) <= now;

/**
 * The endpoints file as saved (none yet: no endpoints); a file that cannot be read as endpoints is
 * refused, naming it and the entry, rather than replaced with none or sent to.
 */
async function readEndpoints(path: string): Promise<Endpoint[]> {
  const refuse = (why: string) => new Error(`${path}: ${why}; the emulator's webhook endpoints cannot be read (remove the file to start with none)`);
  const endpoints = await readJsonFile<unknown>(path).catch((error: unknown) => {
    throw refuse(`not JSON (${(error as Error).message})`);
  });
  if (endpoints === undefined) return [];
  if (!Array.isArray(endpoints)) throw refuse('expected a JSON array of endpoints');
  endpoints.forEach((endpoint, index) => {
    if (!isEndpoint(endpoint)) throw refuse(`[${index}]: expected {endpoint_id, url (http or https), events: null or a list}`);
  });
  return endpoints as Endpoint[];
}

function isEndpoint(value: unknown): value is Endpoint {
  const endpoint = value as Partial<Endpoint> | null;
  if (typeof endpoint !== 'object' || endpoint === null || typeof endpoint.endpoint_id !== 'string' || typeof endpoint.url !== 'string') return false;
  if (!(endpoint.events === null || (Array.isArray(endpoint.events) && endpoint.events.every((type) => typeof type === 'string')))) return false;
  return URL.canParse(endpoint.url) && ['http:', 'https:'].includes(new URL(endpoint.url).protocol);
}
