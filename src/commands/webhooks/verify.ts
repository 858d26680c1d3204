import type { Context } from '../../context.js';
import { parseDuration } from '../../core/cli/duration.js';
import { parseFlags } from '../../core/cli/options.js';
import { CsafeError, InputError, UsageError } from '../../core/errors.js';
import { fileOrStdin } from '../../core/input/sources.js';
import { readBoundedInput } from '../../core/input/whole-file.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { DEFAULT_TOLERANCE_SECONDS, usableSecret, verify, type Received } from '../../core/webhooks/signature.js';
import { positional, type Action } from '../app.js';
import type { webhooksVerify } from './verify-command.js';

// `csafe webhooks verify`: the receiver's check of one notification, from the command line.

/** Far above any notification (the service's bodies are a few kB): a bigger input is not one. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_HEADERS_BYTES = 64 * 1024;

/** A tolerance in whole seconds, never rounded down to 0 (which means: do not check). */
const wholeSeconds = (ms: number) => (ms === 0 ? 0 : Math.max(1, Math.round(ms / 1000)));

/** What to look at when a notification does not verify. */
const INVALID_HINTS = {
  signature: "check that the secret is this endpoint's and that the body is the raw bytes received (a body parsed and written again no longer matches)",
  timestamp: 'a notification is checked when it arrives; for one captured earlier, give --tolerance 0',
};

/** A notification whose signature or timestamp does not hold: exit 1, one line (and a hint). */
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
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>)
        .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
        .map(([key, value]) => [key.toLowerCase(), String(value)]),
    );
  }
  const headers: Record<string, string> = {};
  for (const line of trimmed.split(/\r?\n/)) {
    // The blank line after the headers ends them; one before any (after `HTTP/1.1 100 Continue`) does not.
    if (line === '') {
      if (Object.keys(headers).length > 0) break;
      continue;
    }
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
  const toleranceSeconds = options.tolerance === undefined ? DEFAULT_TOLERANCE_SECONDS : wholeSeconds(parseDuration(options.tolerance, '--tolerance'));
  const [file] = positional(command) as [string | undefined];
  const bodyPath = fileOrStdin(file, ctx.io.stdinIsTTY);
  if (options.headers === '-' && bodyPath === '-') throw new UsageError('--headers - and the body both read stdin: give one of them as a file');
  const headers = await signedHeadersOf(ctx, options);
  const body = await readBoundedInput(bodyPath, ctx.io.stdin, MAX_BODY_BYTES, ctx.signal);
  const verdict = verify(usableSecret(secret, options.secret === undefined ? 'CSAFE_WEBHOOK_SECRET' : '--secret'), { ...headers, body }, { nowSeconds: Math.floor(ctx.now() / 1000), toleranceSeconds });
  if (!verdict.valid) throw new InvalidNotificationError(`invalid: ${verdict.reason}`, { hint: INVALID_HINTS[verdict.reason.startsWith('timestamp') ? 'timestamp' : 'signature'] });
  const format = await ctx.outputFormat('single');
  await printResult(ctx.io, format, { valid: true, webhook_id: headers.id, timestamp: Number(headers.timestamp) }, recordView({ valid: 'yes', webhook_id: headers.id, timestamp: headers.timestamp }));
};
