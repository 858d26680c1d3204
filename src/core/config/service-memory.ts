import { dirname } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic } from '../files/atomic-file.js';
import { readConfigText } from './profile-file.js';
import { makeDirectory } from '../files/make-directory.js';

// What csafe learned of a service, per profile: an endpoint it lacks (it answered 404 or 405), so
// later runs go the older way at once instead of asking again. A cache, never a setting: a file it
// cannot read is an empty memory, and what it holds is forgotten when the profile's base URL changes
// and asked again after RECHECK_AFTER_MS, so a service that gains the endpoint is found out.

/** `service.json`, beside config.json. */
export const SERVICE_MEMORY_FILE = 'service.json';

/** How long a missing endpoint is taken as missing before it is asked for again. */
export const RECHECK_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

const memorySchema = z.object({
  profiles: z.record(
    z.string(),
    z.object({
      base_url: z.string(),
      /** Endpoint name → when the service last answered that it lacks it (ISO 8601). */
      lacking: z.record(z.string(), z.iso.datetime()),
    }),
  ),
});
type Memory = z.infer<typeof memorySchema>;

/** What the commands ask of it: does the service lack this endpoint, as far as csafe knows; and what the service just answered. */
export interface EndpointMemory {
  lacks(endpoint: string): boolean;
  remember(endpoint: string, lacking: boolean): Promise<void>;
}

/** The memory of one profile's service, at `path` (mode 0600, replaced atomically, so a kill mid-write leaves the old one). */
export class ServiceMemory implements EndpointMemory {
  private readonly service: { profile: string; baseUrl: string };

  constructor(
    private readonly path: string,
    service: { profile: string; baseUrl: string },
    private readonly now: () => number,
  ) {
    this.service = { profile: service.profile, baseUrl: withoutCredentials(service.baseUrl) };
  }

  lacks(endpoint: string): boolean {
    const known = this.read().profiles[this.service.profile];
    const since = known?.base_url === this.service.baseUrl ? known.lacking[endpoint] : undefined;
    return since !== undefined && this.now() - Date.parse(since) < RECHECK_AFTER_MS;
  }

  /** Writes only what changes; a file that cannot be written leaves the next run to ask again. */
  async remember(endpoint: string, lacking: boolean): Promise<void> {
    const memory = this.read();
    const { profile, baseUrl } = this.service;
    const known = memory.profiles[profile];
    const current = known?.base_url === baseUrl ? { ...known.lacking } : {};
    if (!lacking && current[endpoint] === undefined) return;
    if (lacking) current[endpoint] = new Date(this.now()).toISOString();
    else delete current[endpoint];
    memory.profiles[profile] = { base_url: baseUrl, lacking: current };
    try {
      await makeDirectory(dirname(this.path), 0o700);
      await writeFileAtomic(this.path, `${JSON.stringify(memory, null, 1)}\n`);
    } catch {
      // A read-only config directory: the fallback still works, only once per run.
    }
  }

  private read(): Memory {
    try {
      const text = readConfigText(this.path);
      const parsed = text === undefined ? undefined : memorySchema.safeParse(JSON.parse(text));
      return parsed?.success ? parsed.data : { profiles: {} };
    } catch {
      return { profiles: {} };
    }
  }
}

/** A base URL as the file keeps it: a user name and password in it are the key's business, not this file's. */
function withoutCredentials(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return baseUrl;
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  return url.href;
}
