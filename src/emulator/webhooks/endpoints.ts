import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { replaceFile } from '../stores/files.js';

/** An endpoint events are sent to: all of them, or only the types listed. */
export interface Endpoint {
  endpoint_id: string;
  url: string;
  /** The event types it takes; null: every type. */
  events: string[] | null;
  created_at: string;
}

/**
 * The endpoints registered with the emulator, kept in a file of the data directory: those given
 * at start (--webhook-url), registered when no endpoint has their URL, and those added at run time.
 */
export class Endpoints {
  private endpoints: Endpoint[] = [];

  private constructor(
    private readonly path: string,
    private readonly initialUrls: readonly string[],
    private readonly now: () => number,
  ) {}

  static async open(path: string, initialUrls: readonly string[], now: () => number): Promise<Endpoints> {
    const endpoints = new Endpoints(path, initialUrls, now);
    endpoints.endpoints = await readEndpoints(path);
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

  async add(url: string, events: string[] | null): Promise<Endpoint> {
    const endpoint: Endpoint = { endpoint_id: `ep_${randomBytes(8).toString('hex')}`, url, events, created_at: new Date(this.now()).toISOString() };
    this.endpoints.push(endpoint);
    await this.save();
    return endpoint;
  }

  /** False when there is no such endpoint. */
  async remove(id: string): Promise<boolean> {
    const before = this.endpoints.length;
    this.endpoints = this.endpoints.filter((endpoint) => endpoint.endpoint_id !== id);
    if (this.endpoints.length === before) return false;
    await this.save();
    return true;
  }

  /** Forgets every endpoint but those given at start: POST /_emulator/reset. */
  async clear(): Promise<void> {
    this.endpoints = [];
    await this.registerInitialUrls();
  }

  private async registerInitialUrls(): Promise<void> {
    const known = new Set(this.endpoints.map((endpoint) => endpoint.url));
    for (const url of this.initialUrls) {
      if (known.has(url)) continue;
      known.add(url);
      await this.add(url, null);
    }
    if (this.initialUrls.length === 0) await this.save();
  }

  private save(): Promise<void> {
    return replaceFile(this.path, JSON.stringify(this.endpoints));
  }
}

/** The endpoints file as saved; a file that cannot be read as endpoints is refused rather than replaced with none. */
async function readEndpoints(path: string): Promise<Endpoint[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const endpoints = JSON.parse(text) as unknown;
  if (!Array.isArray(endpoints)) throw new Error(`${path} does not hold webhook endpoints`);
  return endpoints as Endpoint[];
}
