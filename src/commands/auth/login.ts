import { checkKey } from '../../api/content.js';
import type { Context } from '../../context.js';
import { ApiError, AuthenticationError, CsafeError, InterruptedError, PermissionDeniedError, UsageError } from '../../core/errors.js';
import { parseFlags } from '../../core/cli/options.js';
import type { OptionsOf } from '../../core/cli/flags.js';
import type { authLogin } from './login-command.js';
import { readAll, readHidden } from '../../core/terminal/prompt.js';
import { maskKey } from '../../core/http/redact.js';
import { checkBaseUrl, isWellFormedKey, type Setting } from '../../core/config/settings.js';
import type { Action } from '../app.js';

// `csafe auth login`: checks a key with the service and stores it in the profile only if the service
// took it.

export type AuthLoginOptions = Partial<OptionsOf<typeof authLogin.flags>>;

const NO_VERIFY_HINT = 'pass --no-verify to store the key without checking it';

/** Refused before anything else is checked, so a user piping a key without --with-token learns that first. */
function assertKeyReadable(ctx: Context, fromStdin: boolean): void {
  if (fromStdin || ctx.io.stdinIsTTY) return;
  throw new UsageError('stdin is not a terminal, so the key cannot be asked for', {
    hint: 'pipe it in instead: `echo "$KEY" | csafe auth login --with-token`',
  });
}

async function readKey(ctx: Context, fromStdin: boolean): Promise<string> {
  return (fromStdin ? await readAll(ctx.io.stdin) : await readHidden(ctx.io, 'API key: ', ctx.signal)).trim();
}

export async function authLoginRun(ctx: Context, options: AuthLoginOptions): Promise<void> {
  if (ctx.flags.emulator) {
    throw new UsageError('--emulator runs use the emulator\'s own key: there is no key to store for them', { hint: 'drop --emulator to store a key for the service' });
  }
  const fromStdin = options.withToken ?? false;
  assertKeyReadable(ctx, fromStdin);
  const profile = await ctx.profileName({ creating: true });
  // The key is stored in this file: a corrupt one is reported before the key is read and sent.
  (await ctx.config()).assertReadable();
  const settings = await ctx.settings({ creatingProfile: true });
  const storedBaseUrl = ctx.flags.baseUrl === undefined ? undefined : checkBaseUrl({ value: ctx.flags.baseUrl, source: 'flag' }, settings.insecure);
  const verifyAgainst = options.verify === false ? undefined : requiredBaseUrl(settings.baseUrl);

  const key = await readKey(ctx, fromStdin);
  if (!isWellFormedKey(key)) throw new UsageError('the API key is empty or contains white space or a control character', { hint: 'give the key alone, as the service issued it' });
  ctx.secrets.add(key);
  if (verifyAgainst !== undefined) await verifyKey(ctx, verifyAgainst, key);

  const store = await ctx.config();
  if (storedBaseUrl !== undefined) await store.set(profile, 'base_url', storedBaseUrl);
  await store.set(profile, 'api_key', key);
  ctx.io.note(`Stored key ${maskKey(key)} in profile "${profile}" (${store.path})`);
  warnOfOverrides(ctx, profile);
}

function requiredBaseUrl(baseUrl: Setting | undefined): Setting {
  if (baseUrl !== undefined) return baseUrl;
  throw new UsageError('no base URL to check the key against', {
    hint: `pass --base-url https://… (stored with the key), set CSAFE_BASE_URL or \`csafe config set base_url https://…\`; or ${NO_VERIFY_HINT}`,
  });
}

/** Nothing is stored unless the service took the key: a refused key exits 3, a service that could not answer 1. */
async function verifyKey(ctx: Context, baseUrl: Setting, key: string): Promise<void> {
  try {
    await checkKey(await ctx.httpWithKey(baseUrl, key));
  } catch (error) {
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) throw keyRefused(error);
    if (error instanceof InterruptedError || error instanceof UsageError) throw error;
    throw new CsafeError(`could not check the key against ${baseUrl.value}: ${(error as Error).message}`, {
      hint: `nothing was stored; check the base URL and try again, or ${NO_VERIFY_HINT}`,
      cause: error,
    });
  }
}

/** The service's refusal, as it came (its class keeps exit 3), with what to do instead of the generic hint. */
function keyRefused(error: ApiError): ApiError {
  const Refusal = error.constructor as new (details: ApiError['details'], options: { hint: string }) => ApiError;
  return new Refusal(error.details, { hint: 'the service refused the key, so nothing was stored; check it and run `csafe auth login` again' });
}

/** The stored key is used only when neither of these is set; say so now rather than let a later 401 puzzle the user. */
function warnOfOverrides(ctx: Context, profile: string): void {
  const overriding = [
    ['--api-key', ctx.flags.apiKey],
    ['CSAFE_API_KEY', ctx.env.CSAFE_API_KEY],
  ].filter(([, value]) => value !== undefined && value !== '');
  for (const [name] of overriding) ctx.io.warn(`warning: ${name} is set and overrides the stored key; unset it to use the key of profile "${profile}"`);
}

/** The action of the command declared in login-command.ts, loaded when it runs. */
export const authLoginAction: Action<typeof authLogin.flags> = (ctx, command, flags) => authLoginRun(ctx, parseFlags(flags, command.opts()));
