import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { ConfigKey } from './keys.js';
import { parseDuration, parseNonNegativeInt, parseTimerDuration } from '../cli/duration.js';
import { parseOutputFormat } from '../terminal/output.js';
import { maskUserInfo, redactUrl } from '../http/redact.js';
import { shellWord } from '../cli/command-line.js';
import type { GlobalFlags } from '../cli/global-flags.js';

/** Where a setting came from; `auth status` shows it so a user can tell why a key is in use. */
type Source = 'flag' | 'file' | 'env' | 'profile' | 'emulator' | 'default';
export interface Setting {
  value: string;
  source: Source;
}

export interface Settings {
  profile: string;
  apiKey?: Setting;
  baseUrl?: Setting;
  userId?: Setting;
  output?: string;
  requestTimeoutMs: number;
  maxRetries: number;
  maxWaitMs: number;
  insecure: boolean;
}

const DEFAULTS = { requestTimeoutMs: 60_000, maxRetries: 2, maxWaitMs: 60_000 } as const;


/** The profile used when none is named; it exists without a config file. */
export const DEFAULT_PROFILE = 'default';

/** The profile named by --profile, else CSAFE_PROFILE, else `default`; its source says which, for an error about it. */
export function resolveProfile(flags: GlobalFlags, env: NodeJS.ProcessEnv): Setting {
  if (flags.profile !== undefined) return { value: checkProfileName(flags.profile, '--profile'), source: 'flag' };
  return env.CSAFE_PROFILE ? { value: checkProfileName(env.CSAFE_PROFILE, 'CSAFE_PROFILE'), source: 'env' } : { value: DEFAULT_PROFILE, source: 'default' };
}

/**
 * A name the config file can hold and an error can show on one line: `__proto__` is dropped
 * when the file is read back, so `config set` and `auth login` would report a profile that is not there.
 */
function checkProfileName(name: string, from: string): string {
  if (name.trim() === '' || /\p{Cc}/u.test(name) || name === '__proto__') {
    throw new UsageError(`${from}: ${JSON.stringify(name)} is not a profile name: expected a name with no control characters, not blank and not __proto__`);
  }
  return name;
}

function pick(flag: string | undefined, envValue: string | undefined, profileValue: string | undefined): Setting | undefined {
  if (flag !== undefined && flag !== '') return { value: flag, source: 'flag' };
  if (envValue !== undefined && envValue !== '') return { value: envValue, source: 'env' };
  if (profileValue !== undefined && profileValue !== '') return { value: profileValue, source: 'profile' };
  return undefined;
}

/** The key: --api-key, else --api-key-file's, else CSAFE_API_KEY, else the profile's. */
function apiKeyOf(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile): Setting | undefined {
  if (flags.apiKey !== undefined && flags.apiKeyFile !== undefined) throw new UsageError('--api-key and --api-key-file both give the key: give one of them');
  if (flags.apiKeyFile !== undefined) return { value: readKeyFile(flags.apiKeyFile), source: 'file' };
  return pick(flags.apiKey, env.CSAFE_API_KEY, profile.api_key);
}

/** The most a key file is read of: a key is some dozens of bytes, and a wrong file (a log, /dev/zero) must not be read whole. */
const KEY_FILE_BYTES = 64 * 1024;

/** The first line of --api-key-file, without its line end; a file that cannot give one is a usage error naming it. */
function readKeyFile(path: string): string {
  let text: string;
  try {
    // Non-blocking: a named pipe with no writer would otherwise hold the run forever, before it could be refused.
    const handle = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      if (!fstatSync(handle).isFile()) throw new UsageError(`--api-key-file ${path}: not a regular file`);
      const buffer = Buffer.alloc(KEY_FILE_BYTES);
      text = buffer.subarray(0, readSync(handle, buffer, 0, KEY_FILE_BYTES, 0)).toString('utf8');
    } finally {
      closeSync(handle);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'cannot be read (permission denied)' : (error as Error).message;
    throw new UsageError(`--api-key-file ${path}: ${why}`, { hint: 'give a file whose first line is the key, readable by you alone (chmod 600)' });
  }
  const key = text.split('\n', 1)[0]!.replace(/\r$/, '');
  if (key === '') throw new UsageError(`--api-key-file ${path}: its first line is empty, expected the key`);
  return key;
}

/** Settings an older csafe read, and what replaced them: never read now, but named where found; `config unset` removes the key. */
export const RETIRED_SETTINGS = {
  timeout: { variable: 'CSAFE_TIMEOUT', now: { key: 'request_timeout', variable: 'CSAFE_REQUEST_TIMEOUT' }, meaning: 'the timeout of each request' },
} as const satisfies Record<string, { variable: string; now: { key: ConfigKey; variable: string }; meaning: string }>;
export type RetiredConfigKey = keyof typeof RETIRED_SETTINGS;

/** One profile's settings as stored: current keys, and retired ones an older csafe wrote. */
export type Profile = Partial<Record<ConfigKey | RetiredConfigKey, string>>;

/** The rules of a value, the same for its flag, its environment variable, its profile key and `config set`. */
const VALUE_RULES: Record<Exclude<ConfigKey, 'api_key'>, (text: string, name: string) => unknown> = {
  request_timeout: parseTimerDuration,
  max_retries: parseNonNegativeInt,
  output: parseOutputFormat,
  base_url: parseServiceUrl,
  user_id: (text, name) => {
    if (text.trim() === '') throw new UsageError(`${name}: expected a non-empty user id`);
  },
};

/** A value for `csafe config set`, refused as its flag would refuse it, so a bad value is never stored. */
export function checkConfigValue(key: ConfigKey, value: string): void {
  if (key !== 'api_key') VALUE_RULES[key](value, key);
}

/**
 * Precedence: flag > environment (CSAFE_*) > profile > default. A bad value is named where it
 * came from — the flag, the variable, or the profile key and its file (`configPath`) — so the
 * user knows what to fix.
 */
export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile, profileName: string, configPath?: string): Settings {
  const inProfile = `profile "${profileName}"${configPath === undefined ? '' : ` (${configPath})`}`;
  const nameOf = (setting: Setting, flag: string, variable: string, key: ConfigKey) =>
    setting.source === 'flag' ? flag : setting.source === 'env' ? variable : `${key} in ${inProfile}`;
  const profileFlag = profileName === DEFAULT_PROFILE ? '' : ` --profile ${shellWord(profileName)}`;
  const checked = <T>(setting: Setting | undefined, flag: string, variable: string, key: Exclude<ConfigKey, 'api_key'>) => {
    if (setting === undefined) return undefined;
    try {
      return VALUE_RULES[key](setting.value, nameOf(setting, flag, variable, key)) as T;
    } catch (error) {
      if (setting.source !== 'profile') throw error;
      throw new UsageError((error as Error).message, { hint: `fix it with \`csafe${profileFlag} config set ${key} <value>\` or \`csafe${profileFlag} config unset ${key}\`` });
    }
  };

  refuseRetired(env, profile, inProfile, profileFlag);
  const requestTimeout = pick(flags.requestTimeout, env.CSAFE_REQUEST_TIMEOUT, profile.request_timeout);
  const maxRetries = pick(flags.maxRetries, env.CSAFE_MAX_RETRIES, profile.max_retries);
  const baseUrl = pick(flags.baseUrl, env.CSAFE_BASE_URL, profile.base_url);
  const userId = pick(undefined, env.CSAFE_USER_ID, profile.user_id);
  const output = pick(flags.output, undefined, profile.output);
  checked(baseUrl, '--base-url', 'CSAFE_BASE_URL', 'base_url');
  checked(userId, '--user-id', 'CSAFE_USER_ID', 'user_id');
  return {
    profile: profileName,
    apiKey: apiKeyOf(flags, env, profile),
    baseUrl,
    userId,
    output: checked<string>(output, '--output', '', 'output'),
    requestTimeoutMs: checked<number>(requestTimeout, '--request-timeout', 'CSAFE_REQUEST_TIMEOUT', 'request_timeout') ?? DEFAULTS.requestTimeoutMs,
    maxRetries: checked<number>(maxRetries, '--max-retries', 'CSAFE_MAX_RETRIES', 'max_retries') ?? DEFAULTS.maxRetries,
    maxWaitMs: flags.maxWait ? parseTimerDuration(flags.maxWait, '--max-wait', parseDuration) : DEFAULTS.maxWaitMs,
    insecure: Boolean(flags.insecure),
  };
}

/**
 * A retired variable or profile key is refused, not ignored: ignoring it would quietly change how
 * long a request may take (a script that set 5m for a slow service would fail at the default 60 s
 * with nothing saying why), and a warning scrolls past in a CI log while the fix is one rename.
 */
function refuseRetired(env: NodeJS.ProcessEnv, profile: Profile, inProfile: string, profileFlag: string): void {
  for (const [key, { variable, now, meaning }] of Object.entries(RETIRED_SETTINGS)) {
    const fromEnv = env[variable];
    if (fromEnv !== undefined && fromEnv !== '') {
      throw new UsageError(`${variable} is no longer read: ${meaning} is now ${now.variable}`, { hint: `rename it: ${now.variable}=${shellWord(fromEnv)}` });
    }
    const stored = profile[key as RetiredConfigKey];
    if (stored !== undefined) {
      throw new UsageError(`${key} in ${inProfile} is no longer read: ${meaning} is now ${now.key}`, {
        hint: `rename it: \`csafe${profileFlag} config set ${now.key} ${shellWord(stored)}\` then \`csafe${profileFlag} config unset ${key}\``,
      });
    }
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

export function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * An http(s) URL, as given to `name`; whether a key may go there is checkBaseUrl's question. A user
 * name or password in it is refused rather than dropped: the service takes the API key alone, and a
 * user who put them there (for a proxy, say) learns now why they are not sent, not from a later 401.
 */
function parseServiceUrl(text: string, name: string): URL {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') throw new UsageError(`${name}: expected an https:// or http:// URL, got "${maskUserInfo(text)}"`);
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(`${name}: expected a URL without a user name or password, got "${maskUserInfo(text)}": csafe sends the API key and never credentials from a URL`, {
      hint: 'remove the "user:password@" part',
    });
  }
  // Each request's path is added to the end of the base URL: after a query or fragment it is no path at all.
  if (/[?#]/.test(text)) {
    throw new UsageError(`${name}: expected a URL without a query or fragment, got "${redactUrl(text)}": csafe adds each request's path to its end`, {
      hint: 'remove the part from "?" or "#" on',
    });
  }
  return url;
}

/** What an Authorization header can carry: the key alone, without white space or a control character (a stray newline from a copy). */
export const isWellFormedKey = (key: string) => key !== '' && !/[\s\p{Cc}]/u.test(key);

/** The key to send, refused before any request (and any retry) when no header could carry it, naming where it came from. */
export function checkApiKey(setting: Setting, profileName: string): string {
  if (isWellFormedKey(setting.value)) return setting.value;
  const profileFlag = profileName === DEFAULT_PROFILE ? '' : ` --profile ${profileName}`;
  const where = setting.source === 'flag' ? '--api-key' : setting.source === 'file' ? '--api-key-file' : setting.source === 'env' ? 'CSAFE_API_KEY' : `api_key of profile "${profileName}"`;
  throw new UsageError(`the API key from ${where} contains white space or a control character`, {
    hint: setting.source === 'profile' ? `store it again: \`csafe${profileFlag} auth login\`` : 'give the key alone, as the service issued it',
  });
}

/** A base URL we are willing to send a key to: https, or http only to loopback unless --insecure. */
export function checkBaseUrl(setting: Setting, insecure: boolean): string {
  const url = parseServiceUrl(setting.value, `base URL (from ${setting.source})`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !insecure) {
    throw new UsageError(`refusing to send the API key over plain http:// to ${url.hostname}`, {
      hint: 'use https://, or pass --insecure if you really mean it',
    });
  }
  return setting.value.replace(/\/+$/, '');
}
