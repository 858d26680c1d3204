import type { Context } from '../../context.js';
import { parseDuration } from '../../core/cli/duration.js';
import { parseFlags } from '../../core/cli/options.js';
import { CsafeError, InputError, UsageError } from '../../core/errors.js';
import { fileOrStdin } from '../../core/input/sources.js';
import { readBoundedInput } from '../../core/input/whole-file.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { DEFAULT_TOLERANCE_SECONDS, MalformedSecretError, verify, type Received } from '../../core/webhooks/signature.js';
import { positional, type Action } from '../app.js';
import type { webhooksVerify } from './verify-command.js';

// `csafe webhooks verify`: the receiver's check of one notification, from the command line.

/** Far above any notification (the service's bodies are a few kB): a bigger input is not one. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_HEADERS_BYTES = 64 * 1024;

/** A notification whose signature or timestamp does not hold: exit 1, one line. */
class InvalidNotificationError extends CsafeError {}

type VerifyOptions = ReturnType<typeof parseFlags<typeof webhooksVerify.flags>>;

/** The three headers, from --headers or from their flags (a flag given wins over the file). */
async function signedHeadersOf(ctx: Context, options: VerifyOptions): Promise<Omit<Received, 'body'>> {
  const captured = options.headers === undefined ? {} : parseHeaders(options.headers, (await readBoundedInput(options.headers, ctx.io.stdin, MAX_HEADERS_BYTES, ctx.signal)).toString('utf8'));
  const id = options.id ?? captured['webhook-id'];
  const timestamp = options.timestamp ?? captured['webhook-timestamp'];
  const signature = options.signature ?? captured['webhook-signature'];
  const missing = [['--id', id], ['--timestamp', timestamp], ['--signature', signature]].filter(([, value]) => value === undefined).map(([flag]) => flag);
  if (missing.length > 0) throw new UsageError(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required`, { hint: 'give the webhook-id, webhook-timestamp and webhook-signature headers as flags, or --headers FILE' });
  return { id: id!, timestamp: timestamp!, signature: signature! };
}

/** Captured headers: `Name: value` lines (a request line and anything after the blank line ignored), or a JSON object; names in lower case. */
export function parseHeaders(name: string, text: string): Record<string, string> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new InputError(`${name}: not a JSON object of headers, nor Name: value lines`);
    }
    return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).filter(([, value]) => typeof value === 'string').map(([key, value]) => [key.toLowerCase(), value as string]));
  }
  const headers: Record<string, string> = {};
  for (const line of trimmed.split(/\r?\n/)) {
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon > 0 && !line.slice(0, colon).includes(' ')) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The action of the command declared in verify-command.ts, loaded when it runs. */
export const webhooksVerifyAction: Action<typeof webhooksVerify.flags> = async (ctx, command, flags) => {
  const options = parseFlags(flags, command.opts());
  const secret = options.secret ?? ctx.env.CSAFE_WEBHOOK_SECRET;
  if (secret === undefined || secret === '') throw new UsageError('--secret is required', { hint: 'or set CSAFE_WEBHOOK_SECRET' });
  ctx.secrets.add(secret);
  const toleranceSeconds = options.tolerance === undefined ? DEFAULT_TOLERANCE_SECONDS : Math.round(parseDuration(options.tolerance, '--tolerance') / 1000);
  const headers = await signedHeadersOf(ctx, options);
  const [file] = positional(command) as [string | undefined];
  const body = await readBoundedInput(fileOrStdin(file, ctx.io.stdinIsTTY), ctx.io.stdin, MAX_BODY_BYTES, ctx.signal);
  let verdict;
  try {
    verdict = verify(secret, { ...headers, body }, { nowSeconds: Math.floor(ctx.now() / 1000), toleranceSeconds });
  } catch (error) {
    if (error instanceof MalformedSecretError) throw new UsageError(error.message, { hint: 'a signing secret looks like whsec_ followed by base64, as the endpoint\'s settings show it' });
    throw error;
  }
  if (!verdict.valid) throw new InvalidNotificationError(`invalid: ${verdict.reason}`);
  const format = await ctx.outputFormat('single');
  await printResult(ctx.io, format, { valid: true, webhook_id: headers.id, timestamp: Number(headers.timestamp) }, recordView({ valid: 'yes', webhook_id: headers.id, timestamp: headers.timestamp }));
};
