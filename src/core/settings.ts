import { UsageError } from './errors.js';
import type { Profile } from './config.js';
import { parseDuration, parseNonNegativeInt } from './duration.js';

/** Where a setting came from; `auth status` shows it so a user can tell why a key is in use. */
export type Source = 'flag' | 'env' | 'profile' | 'emulator' | 'default';
export interface Setting {
  value: string;
  source: Source;
}

/** The global flags every command accepts (commander's optsWithGlobals). */
export interface GlobalFlags {
  profile?: string;
  apiKey?: string;
  baseUrl?: string;
  timeout?: string;
  maxRetries?: string;
  maxWait?: string;
  output?: string;
  json?: boolean;
  verbose?: boolean;
  quiet?: boolean;
  color?: boolean;
  insecure?: boolean;
  emulator?: boolean;
}

export interface Settings {
  profile: string;
  apiKey?: Setting;
  baseUrl?: Setting;
  userId?: Setting;
  output?: string;
  timeoutMs: number;
  maxRetries: number;
  maxWaitMs: number;
  insecure: boolean;
}

export const DEFAULTS = { timeoutMs: 60_000, maxRetries: 2, maxWaitMs: 60_000 } as const;

export function resolveProfileName(flags: GlobalFlags, env: NodeJS.ProcessEnv): string {
  return flags.profile ?? (env.CSAFE_PROFILE || 'default');
}

function pick(flag: string | undefined, envValue: string | undefined, profileValue: string | undefined): Setting | undefined {
  if (flag !== undefined && flag !== '') return { value: flag, source: 'flag' };
  if (envValue !== undefined && envValue !== '') return { value: envValue, source: 'env' };
  if (profileValue !== undefined && profileValue !== '') return { value: profileValue, source: 'profile' };
  return undefined;
}

/** Precedence: flag > environment (CSAFE_*) > profile > default. */
export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile, profileName: string): Settings {
  const timeout = pick(flags.timeout, env.CSAFE_TIMEOUT, profile.timeout);
  const maxRetries = pick(flags.maxRetries, env.CSAFE_MAX_RETRIES, profile.max_retries);
  return {
    profile: profileName,
    apiKey: pick(flags.apiKey, env.CSAFE_API_KEY, profile.api_key),
    baseUrl: pick(flags.baseUrl, env.CSAFE_BASE_URL, profile.base_url),
    userId: pick(undefined, env.CSAFE_USER_ID, profile.user_id),
    output: flags.output ?? profile.output,
    timeoutMs: timeout ? parseDuration(timeout.value, '--timeout') : DEFAULTS.timeoutMs,
    maxRetries: maxRetries ? parseNonNegativeInt(maxRetries.value, '--max-retries') : DEFAULTS.maxRetries,
    maxWaitMs: flags.maxWait ? parseDuration(flags.maxWait, '--max-wait') : DEFAULTS.maxWaitMs,
    insecure: Boolean(flags.insecure),
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

export function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** A base URL we are willing to send a key to: https, or http only to loopback unless --insecure. */
export function checkBaseUrl(setting: Setting, insecure: boolean): string {
  let url: URL;
  try {
    url = new URL(setting.value);
  } catch {
    throw new UsageError(`base URL "${setting.value}" (from ${setting.source}) is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`base URL must use https://, got ${url.protocol}//`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !insecure) {
    throw new UsageError(`refusing to send the API key over plain http:// to ${url.hostname}`, {
      hint: 'use https://, or pass --insecure if you really mean it',
    });
  }
  return setting.value.replace(/\/+$/, '');
}
