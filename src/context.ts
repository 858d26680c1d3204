import type { ConfigStore } from './core/config/store.js';
import { CorruptConfigError, MissingCredentialsError, InterruptedError, UsageError } from './core/errors.js';
import type { HttpClient, HttpClientConfig } from './core/http/client.js';
import type { IOStreams } from './core/terminal/io.js';
import type { Profile, ProfileFile } from './core/config/profile-file.js';
import { resolveOutputFormat, type OutputFormat, type ResultShape } from './core/terminal/output.js';
import { DEFAULT_RETRY_POLICY } from './core/http/retry.js';
import { DryRunPlan } from './core/http/dry-run.js';
import { importKeepingSignals } from './core/signals.js';
import { checkApiKey, checkBaseUrl, resolveProfile, resolveSettings, type Setting, type Settings } from './core/config/settings.js';
import type { GlobalFlags } from './core/cli/global-flags.js';
import type { EndpointMemory } from './core/config/service-memory.js';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What every command is given to work with, and where each part comes from: flags, environment, profile, or the in-process emulator. */

/** A service the command talks to when --emulator is given: started on first use, closed at exit. */
export interface LocalService {
  baseUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

export interface ContextDeps {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  flags: GlobalFlags;
  version: string;
  signal: AbortSignal;
  /** The arguments csafe was run with, for the command an interrupted run prints to continue (default: none known). */
  argv?: readonly string[];
  startLocalService: () => Promise<LocalService>;
  /** The clock, in milliseconds since the epoch. */
  now: () => number;
  /** Waits ms; rejects when the signal aborts. A test's sleep may move its clock instead of waiting. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Builds the HTTP core; asynchronous so the real one can load undici only when a command needs it. */
  createHttpClient: (config: HttpClientConfig) => Promise<HttpClient>;
  /** The command was given --dry-run: its requests are recorded, none sent (core/http/dry-run.ts). */
  dryRun?: boolean;
}

/**
 * Everything a command may use, handed over lazily: commands never touch process, console,
 * global fetch or the clock directly, so tests and the emulator mode can swap any of it.
 */
export class Context {
  readonly io: IOStreams;
  readonly env: NodeJS.ProcessEnv;
  readonly flags: GlobalFlags;
  readonly version: string;
  readonly signal: AbortSignal;
  readonly argv: readonly string[];
  /** Values never to be printed: the IOStreams' own, which every stderr line is redacted of as a last line of defence. */
  readonly secrets: Set<string>;
  /** With --dry-run: what the command would send, recorded by the HTTP core in place of sending it. */
  readonly dryRun?: DryRunPlan;
  private readonly deps: ContextDeps;
  private configStore?: ConfigStore;
  private profileFile?: ProfileFile;
  private resolved?: Settings;
  /** The config file could not be read: settings came from flags and environment alone. */
  private unreadableConfig?: CorruptConfigError;
  private client?: Promise<HttpClient>;
  private localService?: Promise<LocalService>;

  constructor(deps: ContextDeps) {
    this.deps = deps;
    this.io = deps.io;
    this.secrets = deps.io.secrets;
    this.env = deps.env;
    this.flags = deps.flags;
    this.version = deps.version;
    this.signal = deps.signal;
    this.argv = deps.argv ?? [];
    if (deps.dryRun) this.dryRun = new DryRunPlan();
  }

  now(): number {
    return this.deps.now();
  }

  async sleep(ms: number, signal: AbortSignal = this.signal): Promise<void> {
    try {
      await this.deps.sleep(ms, signal);
    } catch (error) {
      if (signal.aborted) throw new InterruptedError();
      throw error;
    }
  }

  /** The profile store, for the commands that write it; loaded on first use, since conf's import is the slowest part of start-up. */
  async config(): Promise<ConfigStore> {
    if (this.configStore === undefined) {
      const { ConfigStore } = await importKeepingSignals(() => import('./core/config/store.js'));
      this.configStore = new ConfigStore(this.env.CSAFE_CONFIG_DIR || undefined);
    }
    return this.configStore;
  }

  /** The profiles as stored, read without conf: what every command that only reads settings needs. */
  private async profiles(): Promise<ProfileFile> {
    if (this.profileFile === undefined) {
      const { ProfileFile } = await import('./core/config/profile-file.js');
      this.profileFile = new ProfileFile(this.env.CSAFE_CONFIG_DIR || undefined);
    }
    return this.profileFile;
  }

  /**
   * The profile a command reads or changes, refused when the config file does not hold it (a typo
   * would read as an empty profile). `creating`: the command creates it (`auth login`, `config set`).
   */
  async profileName(options: { creating?: boolean } = {}): Promise<string> {
    const profile = resolveProfile(this.flags, this.env);
    if (!options.creating) (await this.profiles()).requireProfile(profile.value, profile.source === 'flag' ? '--profile' : 'CSAFE_PROFILE');
    return profile.value;
  }

  /** Flags > environment > profile > defaults; the profile must exist unless `creatingProfile` or --emulator (which needs none). */
  async settings(options: { creatingProfile?: boolean } = {}): Promise<Settings> {
    if (this.resolved === undefined) {
      const profile = resolveProfile(this.flags, this.env).value;
      const stored = await this.storedProfile({ creating: options.creatingProfile || this.flags.emulator });
      this.resolved = resolveSettings(this.flags, this.env, stored.values, profile, stored.path);
      if (this.resolved.apiKey) this.secrets.add(this.resolved.apiKey.value);
      this.warnOfExposedKey(this.resolved.apiKey);
    }
    return this.resolved;
  }

  /** A key other users of the machine can read: on the command line (`ps`, shell history), or in a file others may read. */
  private warnOfExposedKey(key: Setting | undefined): void {
    if (key?.source === 'flag') {
      this.io.warn('warning: --api-key shows the key to other users of this machine (ps) and keeps it in shell history; prefer CSAFE_API_KEY, `csafe auth login --with-token`, or --api-key-file FILE');
    }
    const file = this.flags.apiKeyFile;
    if (key?.source === 'file' && file !== undefined) {
      const mode = statSync(file).mode & 0o777;
      if ((mode & 0o077) !== 0) this.io.warn(`warning: ${file}, which holds the API key, can be read by other users (mode ${mode.toString(8).padStart(4, '0')}): chmod 600 ${file}`);
    }
  }

  /**
   * The profile as stored. A corrupt config file reads as an empty profile, so a command given
   * everything by flags and environment still runs; one that needs the file reports it.
   */
  private async storedProfile(options: { creating?: boolean }): Promise<{ values: Profile; path?: string }> {
    const store = await this.profiles();
    try {
      return { values: store.profile(await this.profileName(options)), path: store.path };
    } catch (error) {
      if (!(error instanceof CorruptConfigError)) throw error;
      this.unreadableConfig = error;
      return { values: {} };
    }
  }

  /** What csafe learned of the configured service (core/config/service-memory.ts); none under --emulator, whose address is new each run. */
  async serviceMemory(): Promise<EndpointMemory | undefined> {
    const { baseUrl } = await this.settings();
    if (this.flags.emulator || baseUrl === undefined) return undefined;
    const { ServiceMemory, SERVICE_MEMORY_FILE } = await import('./core/config/service-memory.js');
    const path = join(dirname((await this.profiles()).path), SERVICE_MEMORY_FILE);
    return new ServiceMemory(path, { profile: resolveProfile(this.flags, this.env).value, baseUrl: baseUrl.value }, () => this.now());
  }

  /** The format of stdout from flags alone, for `config` and `emulator start`: they must work while the profile holds a bad value. */
  flagOutputFormat(shape: ResultShape): OutputFormat {
    return resolveOutputFormat({ output: this.flags.output, json: this.flags.json }, this.io.stdoutIsTTY, shape);
  }

  /** The format of stdout for a command that prints one result or a stream of them (see resolveOutputFormat). */
  async outputFormat(shape: ResultShape): Promise<OutputFormat> {
    const { output } = await this.settings();
    // A profile's format is for the person at a terminal: `config set output table` must not break `csafe … | jq`.
    const chosen = this.flags.output !== undefined || (this.io.stdoutIsTTY && !this.flags.json) ? output : undefined;
    return resolveOutputFormat({ output: chosen, json: this.flags.json }, this.io.stdoutIsTTY, shape);
  }

  /** The HTTP core, configured from flags, environment and profile (or the in-process emulator). */
  http(): Promise<HttpClient> {
    this.client ??= this.createClient();
    return this.client;
  }

  /** The HTTP core for a key the command holds instead of the configured one (`auth login` checks a key before storing it); a run uses this or http(). */
  httpWithKey(baseUrl: Setting, apiKey: string): Promise<HttpClient> {
    this.client ??= this.createClient({ baseUrl, apiKey });
    return this.client;
  }

  /** The base URL and key requests go with, and where each came from: the in-process emulator's under --emulator. */
  async credentials(): Promise<{ baseUrl?: Setting; apiKey?: Setting }> {
    if (!this.flags.emulator) {
      const { baseUrl, apiKey } = await this.settings();
      return { baseUrl, apiKey };
    }
    const service = await this.startedLocalService();
    return { baseUrl: { value: service.baseUrl, source: 'emulator' }, apiKey: { value: service.apiKey, source: 'emulator' } };
  }

  /** Releases connections and the in-process emulator; a client that failed to start needs no closing. */
  async close(): Promise<void> {
    const [client, service] = await Promise.allSettled([this.client, this.localService]);
    if (client.status === 'fulfilled') await client.value?.close();
    if (service.status === 'fulfilled') await service.value?.close();
  }

  private async createClient(given?: { baseUrl: Setting; apiKey: string }): Promise<HttpClient> {
    const settings = await this.settings();
    const { baseUrl, apiKey } = given
      ? { baseUrl: checkBaseUrl(given.baseUrl, settings.insecure), apiKey: given.apiKey }
      : this.dryRun
        ? this.plannedTarget(settings)
        : this.flags.emulator
          ? await this.emulatorTarget()
          : this.configuredTarget(settings);
    if (this.unreadableConfig) this.io.warn(`warning: ${this.unreadableConfig.message}; using flags and environment variables only`);
    this.secrets.add(apiKey);
    return this.deps.createHttpClient({
      baseUrl,
      apiKey,
      timeoutMs: settings.requestTimeoutMs,
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: settings.maxRetries, maxWaitMs: settings.maxWaitMs },
      userAgent: `csafe/${this.version} node/${process.versions.node}`,
      io: this.io,
      now: () => this.now(),
      sleep: (ms, signal) => this.sleep(ms, signal),
      signal: this.signal,
      dryRun: this.dryRun,
    });
  }

  private startedLocalService(): Promise<LocalService> {
    if (this.localService === undefined) refuseTargetBesideEmulator(this.flags);
    this.localService ??= this.deps.startLocalService();
    return this.localService;
  }

  private async emulatorTarget(): Promise<{ baseUrl: string; apiKey: string }> {
    const service = await this.startedLocalService();
    this.io.trace(`using an in-process emulator at ${service.baseUrl}`);
    return { baseUrl: service.baseUrl, apiKey: service.apiKey };
  }

  /**
   * A dry run's: the configured service, checked as a run checks it, as far as it is configured.
   * Nothing is sent, so it needs no key, no base URL (each request is then shown by its path) and
   * no emulator (--emulator starts none, so it leaves no data directory behind).
   */
  private plannedTarget(settings: Settings): { baseUrl: string; apiKey: string } {
    if (this.flags.emulator) {
      refuseTargetBesideEmulator(this.flags);
      this.io.note('dry run: --emulator starts no emulator; each request is shown by its path');
      return { baseUrl: '', apiKey: '' };
    }
    if ((!settings.baseUrl || !settings.apiKey) && this.unreadableConfig) throw this.unreadableConfig;
    if (!settings.baseUrl) this.io.note('dry run: no base URL configured; each request is shown by its path');
    if (!settings.apiKey) this.io.note('dry run: no API key configured, so no Authorization header is shown; a real run needs one (csafe auth login, or CSAFE_API_KEY)');
    return {
      baseUrl: settings.baseUrl ? checkBaseUrl(settings.baseUrl, settings.insecure) : '',
      apiKey: settings.apiKey ? checkApiKey(settings.apiKey, settings.profile) : '',
    };
  }

  private configuredTarget(settings: Settings): { baseUrl: string; apiKey: string } {
    // What is missing may well be in the file that could not be read: that is the thing to fix.
    if ((!settings.baseUrl || !settings.apiKey) && this.unreadableConfig) throw this.unreadableConfig;
    if (!settings.baseUrl) {
      throw new UsageError('no base URL configured', {
        hint: 'set one with `csafe config set base_url https://…`, CSAFE_BASE_URL or --base-url; or try --emulator',
      });
    }
    if (!settings.apiKey) {
      throw new MissingCredentialsError('no API key configured', {
        hint: 'run `csafe auth login`, set CSAFE_API_KEY, or pass --api-key',
      });
    }
    return { baseUrl: checkBaseUrl(settings.baseUrl, settings.insecure), apiKey: checkApiKey(settings.apiKey, settings.profile) };
  }
}

/** The flags that name a service or its key, by how they are written. */
const TARGET_FLAGS = { baseUrl: '--base-url', apiKey: '--api-key', apiKeyFile: '--api-key-file' } as const;

/**
 * --emulator is the service and its key: a --base-url or key given beside it would be passed
 * over, and what the emulator answered taken for the named service's answer.
 */
function refuseTargetBesideEmulator(flags: GlobalFlags): void {
  const given = (Object.keys(TARGET_FLAGS) as (keyof typeof TARGET_FLAGS)[]).find((key) => flags[key] !== undefined);
  if (given !== undefined) throw new UsageError(`--emulator and ${TARGET_FLAGS[given]} conflict: --emulator runs against an in-process emulator with its own key; give one`);
}
