import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { addWebhookEndpoint, emulatorHealth, NotAnEmulatorError, removeWebhookEndpoint, renewWebhookEndpoint } from '../../api/emulator.js';
import type { Context } from '../../context.js';
import { optionsSchema, parseOptions } from '../../core/cli/options.js';
import { ApiError, InputError, UsageError } from '../../core/errors.js';
import { maskUserInfo, redactUrl } from '../../core/http/redact.js';
import { readStreamBounded } from '../../core/input/whole-file.js';
import type { HttpClient } from '../../core/http/client.js';
import { resultWriter, type ResultWriter, type StreamView } from '../../core/terminal/output.js';
import { sanitizeForTerminal } from '../../core/terminal/sanitize.js';
import type { IOStreams } from '../../core/terminal/io.js';
import { sign, usableSecret } from '../../core/webhooks/signature.js';
import { httpUrlSchema, webhookEventListSchema } from '../../schemas/webhooks.js';
import type { Action } from '../app.js';
import type { webhooksListen } from './listen-command.js';

// `csafe webhooks listen`: the emulator's notifications, received on this machine, printed and
// forwarded to the user's receiver (as `stripe listen --forward-to` does for Stripe's).

/** Far above any notification: a bigger body is refused (413) rather than held. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** As long as the service waits for a receiver's answer. */
const FORWARD_TIMEOUT_MS = 15_000;
/** How often the registration is renewed (and so checked: an emulator restarted without --data-dir, or reset, has forgotten it). */
const WATCH_EVERY_MS = 2_000;
/**
 * The endpoint's lease: a listener killed before it could remove its endpoint (kill -9, a closed
 * laptop) leaves it to the emulator this long at most, not for good. Many renewals long, so a
 * listener that is slow for a while (a paused terminal, a loaded machine) keeps it.
 */
const LEASE_SECONDS = 30;

/** One delivery as printed: when, what, the receiver's answer. */
interface Forwarded {
  time: string;
  webhook_id: string;
  type: string;
  /** `listings/listing-2`, `dec_…`, `bat_…`: what the event is about. */
  about: string;
  status: number;
  latency_ms: number;
  error?: string;
}

/** `10:42:07  workflow.succeeded  listings/listing-2  msg_…  204  12 ms`, printed as it arrives. */
function lineWriter(io: IOStreams): Pick<ResultWriter<Forwarded>, 'print' | 'end'> {
  return {
    print: (d) => {
      const ok = d.status >= 200 && d.status < 300;
      const status = ok ? io.outColor.green(String(d.status)) : io.outColor.red(String(d.status));
      // Each value comes from the notification, the sender's to choose: inert on the terminal.
      const [type, about, id, error] = [d.type, d.about, d.webhook_id, d.error].map((text) => (text === undefined ? undefined : sanitizeForTerminal(text)));
      return io.out(`${d.time.slice(11, 19)}  ${type}  ${about}  ${id}  ${status}  ${d.latency_ms} ms${error === undefined ? '' : `  ${error}`}\n`);
    },
    end: async () => undefined,
  };
}

const deliveriesView: StreamView<Forwarded, Forwarded> = {
  rows: (delivery) => [delivery],
  columns: [
    { header: 'TIME', value: (d) => d.time.slice(11, 19) },
    { header: 'TYPE', value: (d) => d.type },
    { header: 'ABOUT', value: (d) => d.about },
    { header: 'WEBHOOK ID', value: (d) => d.webhook_id },
    { header: 'STATUS', value: (d) => String(d.status), style: (d, text, c) => (d.status >= 200 && d.status < 300 ? c.green(text) : c.red(text)) },
    { header: 'LATENCY', value: (d) => `${d.latency_ms} ms` },
    { header: 'ERROR', value: (d) => d.error ?? '', hideWhenSame: true },
  ],
};

interface Listening {
  forwardTo?: string;
  forwardSecret?: string;
  events?: string[];
}

function checkedOptions(ctx: Context, flags: typeof webhooksListen.flags, raw: unknown): Listening {
  const options = parseOptions(optionsSchema(flags).extend({ forwardTo: httpUrlSchema.optional(), events: webhookEventListSchema.optional() }), raw);
  const forwardSecret = options.forwardSecret === undefined ? undefined : usableSecret(options.forwardSecret, '--forward-secret');
  if (forwardSecret !== undefined) ctx.secrets.add(forwardSecret);
  return { forwardTo: options.forwardTo === undefined ? undefined : withoutCredentials(options.forwardTo), forwardSecret, events: options.events };
}

/**
 * A user name or password in --forward-to is refused, as in a base URL: csafe never sends
 * credentials from a URL, so the receiver would answer 401 for a reason not said, and the
 * password would be shown where the address is.
 */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return url;
  throw new UsageError(`--forward-to: expected a URL without a user name or password, got "${maskUserInfo(url)}": csafe never sends credentials from a URL`, {
    hint: 'remove the "user:password@" part: your receiver knows a notification by its signature',
  });
}

/** Endpoints are the emulator's to register: the service's are set in its dashboard. */
async function requireEmulator(http: HttpClient): Promise<void> {
  try {
    await emulatorHealth(http);
  } catch (error) {
    if (error instanceof NotAnEmulatorError) {
      throw new UsageError(`${http.baseUrl} is not a csafe emulator: the service sends its notifications to the endpoints set in its dashboard`, {
        hint: 'add your receiver\'s public URL there; to build the receiver offline, run `csafe emulator start` and point CSAFE_BASE_URL at it',
      });
    }
    throw error;
  }
}

/** The action of the command declared in listen-command.ts, loaded when it runs. */
export const webhooksListenAction: Action<typeof webhooksListen.flags> = async (ctx, command, flags) => {
  const listening = checkedOptions(ctx, flags, command.opts());
  const http = await ctx.http();
  await requireEmulator(http);
  const format = await ctx.outputFormat('stream');
  // A table is drawn when a run ends, and a listener runs until Ctrl-C: a line as each delivery arrives instead.
  const results = format === 'table' ? lineWriter(ctx.io) : resultWriter(ctx.io, format, deliveriesView);
  // Any process on this machine can reach the port, and what arrives is passed on as the emulator's (re-signed with
  // --forward-secret): only the emulator, told this path through its authenticated API, gets a delivery through.
  const path = `/${randomBytes(16).toString('hex')}`;
  const server = createServer((req, res) => {
    if (req.url !== path) return void res.writeHead(404).end();
    // A request cut off mid-body (the emulator stopped) is answered 400 if it still can be; the listener goes on.
    void receive(ctx, http, listening, req, res, results).catch(() => void (res.headersSent ? res.destroy() : res.writeHead(400).end()));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  try {
    const registered = { id: (await addWebhookEndpoint(http, url, listening.events, LEASE_SECONDS)).endpoint_id };
    ctx.io.note(`Ready: ${listening.forwardTo === undefined ? 'printing' : `forwarding to ${redactUrl(listening.forwardTo)}`} the notifications of ${http.baseUrl} (endpoint ${registered.id}); Ctrl-C to stop`);
    await watchRegistration(ctx, http, url, listening, registered);
    await removeWebhookEndpoint(http, registered.id).catch(() => undefined);
  } finally {
    server.close();
    server.closeAllConnections();
    await results.end();
  }
  ctx.io.note('stopped: the endpoint is removed');
};

/** Until Ctrl-C: renews the endpoint's lease, and registers again when the emulator has forgotten it (a restart, a reset), saying so. */
async function watchRegistration(ctx: Context, http: HttpClient, url: string, listening: Listening, registered: { id: string }): Promise<void> {
  let unreachable = false;
  while (!ctx.signal.aborted) {
    await ctx.sleep(WATCH_EVERY_MS).catch(() => undefined);
    if (ctx.signal.aborted) return;
    try {
      const renewed = await renewWebhookEndpoint(http, registered.id);
      if (unreachable) ctx.io.warn(`the emulator at ${http.baseUrl} answers again`);
      unreachable = false;
      if (renewed !== undefined) continue;
      registered.id = (await addWebhookEndpoint(http, url, listening.events, LEASE_SECONDS)).endpoint_id;
      ctx.io.warn(`the emulator forgot this endpoint (restarted or reset): registered again as ${registered.id}`);
    } catch (error) {
      if (ctx.signal.aborted) return;
      if (!unreachable) ctx.io.warn(`the emulator at ${http.baseUrl} does not answer (${(error as Error).message}); trying again every ${WATCH_EVERY_MS / 1000} s`);
      unreachable = true;
    }
  }
}

/** One delivery: read, forwarded (or answered 204), answered with the receiver's status, printed. */
async function receive(ctx: Context, http: HttpClient, listening: Listening, req: IncomingMessage, res: ServerResponse, results: Pick<ResultWriter<Forwarded>, 'print'>): Promise<void> {
  const body = await readStreamBounded(req, MAX_BODY_BYTES, () => new BodyTooLargeError(`a delivery over ${MAX_BODY_BYTES} bytes`)).catch((error: unknown) => {
    if (error instanceof BodyTooLargeError) return undefined;
    throw error;
  });
  if (body === undefined) return void res.writeHead(413).end();
  const started = ctx.now();
  const headers = { id: header(req, 'webhook-id'), timestamp: header(req, 'webhook-timestamp'), signature: header(req, 'webhook-signature') };
  const outcome = listening.forwardTo === undefined ? { status: 204 } : await forward(http, listening, headers, body);
  res.writeHead(outcome.status).end();
  const event = describeEvent(body);
  await results.print({ time: new Date(started).toISOString(), webhook_id: headers.id, ...event, status: outcome.status, latency_ms: ctx.now() - started, ...(outcome.error !== undefined && { error: outcome.error }) }).catch(() => undefined);
}

/** The notification as received, to the user's receiver: its headers kept, or its signature made anew with --forward-secret. */
async function forward(http: HttpClient, listening: Listening, headers: { id: string; timestamp: string; signature: string }, body: Buffer): Promise<{ status: number; error?: string }> {
  const signature = listening.forwardSecret === undefined ? headers.signature : sign(listening.forwardSecret, headers.id, Number(headers.timestamp), body);
  try {
    const response = await http.request({
      method: 'POST',
      url: listening.forwardTo!,
      headers: { 'webhook-id': headers.id, 'webhook-timestamp': headers.timestamp, 'webhook-signature': signature },
      body: { open: () => body, length: body.length, contentType: 'application/json' },
      // The emulator retries what the receiver did not take: its answer, whatever it is, goes back as it is.
      once: true,
      timeoutMs: FORWARD_TIMEOUT_MS,
    });
    return { status: response.status };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, error: `answered ${error.status}` };
    return { status: 502, error: (error as Error).message };
  }
}

class BodyTooLargeError extends InputError {}

const header = (req: IncomingMessage, name: string) => String(req.headers[name] ?? '');


/** The event's type and what it is about, read tolerantly: a body that is not the JSON expected still gets a line. */
function describeEvent(body: Buffer): { type: string; about: string } {
  try {
    const event = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const data = (event.data ?? {}) as Record<string, unknown>;
    const type = String(event.type ?? event.event_type ?? 'unknown');
    const about = event.namespace !== undefined ? `${String(event.namespace)}/${String(event.id)}` : String(data.decision_id ?? data.batch_id ?? '');
    return { type, about };
  } catch {
    return { type: 'unknown', about: '' };
  }
}

