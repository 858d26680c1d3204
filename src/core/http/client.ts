import type { ClientRequest, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import {
  apiErrorFor,
  ConnectionError,
  CsafeError,
  InterruptedError,
  RequestTimeoutError,
  ResponseTooLargeError,
  RetryAfterTooLongError,
  UnexpectedResponseError,
} from '../errors.js';
import { isBrokenPipe, type IOStreams } from '../terminal/io.js';
import { stopWords } from '../signals.js';
import { nestsDeeperThan } from '../json/position.js';
import { describeNetworkError, errorCode } from './network-words.js';
import { redactHeaders, redactUrl } from './redact.js';
import { decideRetry, type AttemptOutcome, type Headers, type RetryPolicy } from './retry.js';
import type { DryRunPlan, PlannedRequest } from './dry-run.js';
import { Agent, request, requestText } from './undici.js';

/*
 * node:http and node:https, which only uploads use, loaded when an upload starts: node:https loads
 * node:tls and node:crypto, which no command talking to http:// needs. Not by an ES import: it reads
 * every export of a module, and from Node 22 node:http has some (WebSocket, MessageEvent…) that
 * load Node's own bundled undici when read, ≈ 40 ms (test/e2e/startup.test.ts, under Node 22 and
 * 24 in `npm run test:matrix`).
 */
const requestOf = (url: string) => (url.startsWith('https:') ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http')).request;

/** How one request reaches the service or a pre-signed address, and what comes back: the request engine every API call and upload goes through. */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpClientConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retry: RetryPolicy;
  userAgent: string;
  io: IOStreams;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Aborted on Ctrl-C: every request in flight stops and reports InterruptedError. */
  signal?: AbortSignal;
  /** Default RESPONSE_LIMITS.bytes; smaller in tests. */
  maxResponseBytes?: number;
  /** --dry-run: every request is recorded here instead of being sent, and ends the run (see dry-run.ts). */
  dryRun?: DryRunPlan;
}

/**
 * What the client accepts of an answer (documented in the README): bigger bodies are refused
 * while being read, never held whole; deeper JSON is refused before it is parsed, so nothing
 * recursive (parsing, validation, printing) can run out of stack on it.
 */
export const RESPONSE_LIMITS = { bytes: 64 * 1024 * 1024, depth: 512 } as const;

/**
 * A body that can be opened again for each attempt, so a retry never replays a half-read stream.
 * To an absolute URL (an upload), a chunk has been written before the next-but-one is asked for,
 * so a source may read chunks into two buffers by turns; what the source throws stops the upload
 * before its last byte and is thrown as it is, never retried.
 */
export interface ReopenableBody {
  open(): Buffer | AsyncIterable<Buffer>;
  length: number;
  contentType: string;
}

export interface RequestSpec {
  method: Method;
  /** Path under the base URL, e.g. `/v1/content`. */
  path?: string;
  /** An absolute URL (a pre-signed upload address). It never receives the Authorization header. */
  url?: string;
  headers?: Record<string, string>;
  json?: unknown;
  body?: ReopenableBody;
  signal?: AbortSignal;
  /** false when applying the request twice would do harm; see shouldRetry(). Default true. */
  replaySafe?: boolean;
  /** The caller needs only that it succeeded (an import's schema, set before the import is asked for): a dry run records it and goes on. */
  answerUnused?: true;
  /** Sent once whatever its answer: the caller passes the answer on as it is (`webhooks listen` forwarding to a receiver). */
  once?: true;
  /**
   * Ctrl-C does not cut this request off: its answer is what tells whether the service took it,
   * so a command can say exactly what was accepted. No retry starts after Ctrl-C, and a second
   * Ctrl-C still leaves at once (src/launcher.ts).
   */
  finishOnInterrupt?: boolean;
  /**
   * With finishOnInterrupt, what its answer tells (`the answer to POST /v1/decisions, which says
   * whether …`): said on stderr, with what stopped the run, when it stops while this request awaits
   * its answer, so the wait, up to --request-timeout, does not look like a hang. (A bulk run says
   * instead how many answers it awaits.)
   */
  awaitedAnswer?: string;
  /**
   * Limit on the whole exchange; default the client's --request-timeout. null for uploads of any size,
   * which are bounded by the idle limits instead (no byte moving for --request-timeout).
   */
  timeoutMs?: number | null;
  /**
   * A download: the body of a 2xx answer is handed over as a stream, never held whole (and not
   * limited in size). A failure once its bytes flow is not retried: some may have been consumed.
   */
  onBody?: (body: Readable) => Promise<void>;
  /**
   * What the caller relies on in a 2xx answer's JSON, read from it (the response's body is then
   * what it returns). Read within the attempt: an UnexpectedResponseError it throws (JSON of
   * another shape) makes the answer one that cannot be read, as a body that is not JSON does, and
   * the one retry policy decides alike: retried where the request may be sent twice, else not.
   */
  readAnswer?: (body: unknown) => unknown;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON of an answer under the base URL; undefined for absolute URLs (an object store's answer is not JSON). */
  body: unknown;
  retries: number;
  /** A dry run's answer to a request whose answer is not used: recorded, not sent, so nothing came back. */
  planned?: true;
}

/** The one request engine: auth, JSON, timeouts, the retry policy, typed errors and redacted tracing. */
export class HttpClient {
  private readonly agent: Agent;

  /** The configured base URL without a trailing slash, nor a user name or password (see absoluteUrl). */
  readonly baseUrl: string;

  /** Retries made so far, over every request: what a bulk run's summary counts. */
  retries = 0;

  constructor(private readonly config: HttpClientConfig) {
    this.baseUrl = withoutUserInfo(config.baseUrl).replace(/\/+$/, '');
    this.agent = new Agent({
      keepAliveTimeout: 10_000,
      connect: { timeout: Math.min(config.timeoutMs, 10_000) },
    });
  }

  async request(spec: RequestSpec): Promise<HttpResponse> {
    const { url, display } = this.target(spec);
    const headers = this.headers(spec);
    const json = serialised(spec, display);
    if (this.config.dryRun) {
      const request = planned(spec, url, headers, json);
      if (!spec.answerUnused) throw this.config.dryRun.stop(request);
      this.config.dryRun.record(request);
      return { status: 0, headers: {}, body: undefined, retries: 0, planned: true };
    }
    const { awaitedAnswer } = spec;
    const interrupt = this.config.signal;
    if (awaitedAnswer === undefined || interrupt === undefined) return this.send(spec, url, display, headers, json);
    const say = () => {
      const { why, again } = stopWords(interrupt);
      this.config.io.note(`${why}: waiting for ${awaitedAnswer} (${again} to leave without it)`);
    };
    interrupt.addEventListener('abort', say, { once: true });
    try {
      return await this.send(spec, url, display, headers, json);
    } finally {
      interrupt.removeEventListener('abort', say);
    }
  }

  /** The request's attempts, by the retry policy. */
  private async send(spec: RequestSpec, url: string, display: string, headers: Record<string, string>, json: string | undefined): Promise<HttpResponse> {
    for (let retry = 0; ; retry++) {
      // Built only with --verbose: at hundreds of requests in flight, redacting each URL is measurable.
      this.config.io.trace(() => `→ ${spec.method} ${redactUrl(url)} ${JSON.stringify(redactHeaders(headers))}`);
      const started = this.config.now();
      const signal = this.attemptSignal(spec);
      let attempt: Attempt;
      try {
        attempt = await this.attempt(spec, url, headers, json, signal);
        const elapsed = this.config.now() - started;
        if ('response' in attempt) {
          this.config.io.trace(`← ${attempt.response.statusCode} ${spec.method} ${display} in ${elapsed} ms`);
        } else {
          this.config.io.trace(`← ${attempt.error.message} ${spec.method} ${display} after ${elapsed} ms`);
        }
        if ('response' in attempt && attempt.response.statusCode < 300) {
          const { statusCode: status, headers } = attempt.response;
          // A download's time limit holds until its last byte.
          // A download is always read as a stream (attempt).
          if (spec.onBody !== undefined) await this.consume(spec, display, (attempt.response as StreamedAnswer).body);
          const body = spec.url === undefined && spec.onBody === undefined ? readJsonAnswer(attempt.text, status, `${spec.method} ${display}`, spec.readAnswer) : undefined;
          if (!(body instanceof UnexpectedResponseError)) return { status, headers, body, retries: retry };
          attempt = { error: body };
        }
      } finally {
        signal.done();
      }
      const outcome = outcomeOf(attempt);
      const policy = spec.once ? { ...this.config.retry, maxRetries: 0 } : this.config.retry;
      const decision = decideRetry(outcome, retry, policy, this.config.now(), this.config.random, spec.replaySafe);
      const failure = 'response' in attempt ? this.apiError(spec, display, attempt.response, attempt.text) : attempt.error;
      if (!decision.retry) throw withRetryCount(failure, retry);
      if ('response' in attempt && decision.serverRequested && decision.delayMs > this.config.retry.maxWaitMs) {
        throw new RetryAfterTooLongError(decision.delayMs, new Date(this.config.now() + decision.delayMs), attempt.response.statusCode);
      }
      this.announceRetry(spec.method, display, failure, retry, decision.delayMs);
      this.retries++;
      await this.config.sleep(decision.delayMs, this.config.signal);
    }
  }

  /**
   * In a dry run, the upload bound to follow the request that issues its address (recorded by
   * request()): its headers as they would go, to the address the answer to `issuer` would give.
   */
  plannedUpload(issuer: PlannedRequest, method: Method, body: { name: string; length: number; contentType: string }): PlannedRequest {
    const headers = this.headers({ method, url: 'about:upload', body: { open: () => Buffer.alloc(0), length: body.length, contentType: body.contentType } });
    // The issuer's URL is a path alone when no base URL is configured.
    const path = issuer.url !== null && URL.canParse(issuer.url) ? new URL(issuer.url).pathname : issuer.url;
    return { method, url: null, url_from: `the upload address in the answer to ${issuer.method} ${path}`, headers: redactHeaders(headers), body_file: body.name, body_bytes: body.length };
  }

  async json(method: Method, path: string, json?: unknown, headers?: Record<string, string>): Promise<unknown> {
    return (await this.request({ method, path, json, headers })).body;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private target(spec: RequestSpec): { url: string; display: string } {
    if (spec.url !== undefined) {
      const url = absoluteUrl(spec.method, spec.url);
      return { url, display: redactUrl(url) };
    }
    const path = spec.path ?? '/';
    return { url: this.baseUrl + path, display: path };
  }

  private headers(spec: RequestSpec): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': this.config.userAgent, accept: 'application/json' };
    // A dry run with no key configured has none to show.
    if (spec.url === undefined && this.config.apiKey !== '') headers.authorization = `Bearer ${this.config.apiKey}`;
    if (spec.json !== undefined) headers['content-type'] = 'application/json';
    if (spec.body !== undefined) {
      headers['content-type'] = spec.body.contentType;
      headers['content-length'] = String(spec.body.length);
    }
    return { ...headers, ...spec.headers };
  }

  private attemptSignal(spec: RequestSpec): AttemptSignal {
    const limitMs = spec.timeoutMs === undefined ? this.config.timeoutMs : spec.timeoutMs;
    const interrupt = spec.finishOnInterrupt ? undefined : this.config.signal;
    return new AttemptSignal(limitMs ?? undefined, [interrupt, spec.signal].filter((s): s is AbortSignal => s !== undefined));
  }

  private async attempt(
    spec: RequestSpec,
    url: string,
    headers: Record<string, string>,
    json: string | undefined,
    signal: AttemptSignal,
  ): Promise<Attempt> {
    const interrupt = spec.finishOnInterrupt ? undefined : this.config.signal;
    const what = `${spec.method} ${this.target(spec).display}`;
    try {
      // Read inside the attempt: a connection cut or a stall mid-body is then retried like any other network failure.
      if (isUpload(spec)) {
        const response = await upload(url, spec.method, headers, spec.body.open(), signal.signal, this.config.timeoutMs);
        return { response, text: await this.readBody(response, what) };
      }
      const options = {
        method: spec.method,
        headers,
        body: json ?? undiciBody(spec.body?.open()),
        dispatcher: this.agent,
        signal: signal.signal,
        headersTimeout: this.config.timeoutMs,
        bodyTimeout: this.config.timeoutMs,
      };
      if (spec.onBody === undefined) {
        const { statusCode, headers: answerHeaders, text } = await requestText(url, { ...options, maxBytes: this.maxResponseBytes, tooLarge: () => this.tooLarge(what) });
        return { response: { statusCode, headers: answerHeaders }, text };
      }
      // A download: a 2xx answer's body is handed over as a stream, any other read as text.
      const response = await request(url, options);
      return { response, text: response.statusCode < 300 ? '' : await this.readBody(response, what) };
    } catch (error) {
      if (error instanceof ResponseTooLargeError) throw error;
      if (error instanceof BodySourceError) throw error.cause;
      if (isLocalFault(error)) throw new CsafeError(`${what}: csafe could not make the request: ${(error as Error).message}`, { cause: error });
      if (interrupt?.aborted || spec.signal?.aborted) throw new InterruptedError();
      if (signal.timedOut || isTimeout(error)) {
        const seconds = this.config.timeoutMs / 1000;
        const [failure, slow] = isUpload(spec) ? [`the upload stalled: no byte moved either way for ${seconds} s`, 'the link'] : [`no answer within ${seconds} s`, 'the service'];
        return { error: new RequestTimeoutError(`${what}: ${failure}`, { hint: `raise --request-timeout (or CSAFE_REQUEST_TIMEOUT) if ${slow} is slow` }) };
      }
      const sent = !NOT_SENT_CODES.has(errorCode(error) ?? '');
      return { error: new ConnectionError(`${what}: ${describeNetworkError(error, url)}`, sent) };
    }
  }

  private async consume(spec: RequestSpec, display: string, body: Readable): Promise<void> {
    try {
      await spec.onBody!(body);
    } catch (error) {
      // Destroyed unread (the file could not even be opened), undici's body emits an abort error: nobody listens any more.
      body.on('error', () => undefined);
      body.destroy();
      if (this.config.signal?.aborted || spec.signal?.aborted) throw new InterruptedError();
      // The reader of the file written went away (a FIFO, `/dev/stdout | head`): for main() that ends the run as done, not a network failure.
      if (error instanceof CsafeError || isBrokenPipe(error)) throw error;
      throw new ConnectionError(`${spec.method} ${display}: the download broke off: ${describeNetworkError(error, this.target(spec).url)}`, true);
    }
  }

  private get maxResponseBytes(): number {
    return this.config.maxResponseBytes ?? RESPONSE_LIMITS.bytes;
  }

  private tooLarge(what: string): ResponseTooLargeError {
    return new ResponseTooLargeError(`${what}: the response is larger than ${sizeText(this.maxResponseBytes)}, the limit; stopped reading it`);
  }

  /** The body of a stream's answer as text, refused once it passes the size limit: its Content-Length says so, or the bytes read do. */
  private async readBody(response: StreamedAnswer, what: string): Promise<string> {
    const limit = this.maxResponseBytes;
    const tooLarge = () => this.tooLarge(what);
    if (Number(first(response.headers['content-length'])) > limit) {
      response.body.destroy();
      throw tooLarge();
    }
    const decoder = new TextDecoder();
    let text = '';
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Leaving the loop destroys the body, which aborts the request: the rest is never downloaded.
      if (size > limit) throw tooLarge();
      text += decoder.decode(chunk, { stream: true });
    }
    return text + decoder.decode();
  }

  private apiError({ method, url }: RequestSpec, path: string, response: Answer, text: string): CsafeError {
    const body = parseBody(text);
    const { message, type, field } = serviceMessage(body, response.statusCode);
    const requestId = first(response.headers['x-request-id']) ?? first(response.headers['request-id']);
    return apiErrorFor({ status: response.statusCode, method, path, serviceMessage: message, errorType: type, field, requestId, body }, url === undefined ? 'service' : 'address');
  }

  private announceRetry(method: Method, path: string, failure: CsafeError, retry: number, delayMs: number): void {
    const line = `retry ${retry + 1}/${this.config.retry.maxRetries} of ${method} ${path} in ${delayMs} ms after: ${failure.message}`;
    // Long waits are announced even without --verbose, so a pause never looks like a hang.
    if (delayMs >= 5_000) this.config.io.note(line);
    else this.config.io.trace(line);
  }
}

/** An answer's status line and headers, from undici or node:http alike. */
interface Answer {
  statusCode: number;
  headers: Headers;
}

/** An answer whose body comes as a stream: a download's, or an upload's (node:http). */
interface StreamedAnswer extends Answer {
  body: Readable;
}

type Attempt = { response: Answer | StreamedAnswer; text: string } | { error: CsafeError };

/** What a body's own source threw (a check of the file found a bad line): the upload stops, and this is no network failure. */
class BodySourceError extends Error {
  constructor(override readonly cause: unknown) {
    super('the body could not be read');
  }
}

/**
 * An upload to a pre-signed address, by node:http(s) rather than undici: it knows when a chunk
 * has been handed to the kernel (sendChunks), so the source can reuse its buffers, where undici
 * reads ahead of the socket and must be given fresh memory for every chunk. A fresh connection per attempt; a
 * stall of `idleMs` with no byte moving either way ends it. An answer that comes before the body
 * is all sent (a refusal) stops the sending and is returned.
 */
async function upload(url: string, method: Method, headers: Record<string, string>, body: Buffer | AsyncIterable<Buffer>, signal: AbortSignal, idleMs: number): Promise<StreamedAnswer> {
  const req = requestOf(url)(url, { method, headers, signal, agent: false });
  req.setTimeout(idleMs, () => req.destroy(Object.assign(new Error(`no byte moved for ${idleMs} ms`), { code: 'ETIMEDOUT' })));
  let answered = false;
  const answer = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  }).finally(() => {
    answered = true;
  });
  // Awaited below, unless the body's source fails first: then the request is destroyed and its error is of no interest.
  answer.catch(() => undefined);
  try {
    if (Buffer.isBuffer(body)) req.end(body);
    else if (await sendChunks(req, body, answer, () => answered)) req.end();
    const response = await answer;
    if (!req.writableEnded) {
      // Only a refusal may come before the whole body went: a success then would leave the object cut short.
      if ((response.statusCode ?? 0) < 300) throw new Error(`the upload address answered ${response.statusCode} before the whole body was sent`);
      // Once the refusal's text is read, the connection is of no further use.
      response.once('end', () => req.destroy());
    }
    return { statusCode: response.statusCode ?? 0, headers: response.headers, body: response };
  } catch (error) {
    req.destroy();
    throw error;
  }
}

/** A request as it would have gone: its URL and headers redacted, its body as JSON (a file's bytes by their count). */
function planned(spec: RequestSpec, url: string, headers: Record<string, string>, json: string | undefined): PlannedRequest {
  const request: PlannedRequest = { method: spec.method, url: redactUrl(url), headers: redactHeaders(headers) };
  // undici adds the length of a JSON body as it sends it.
  if (json !== undefined) return { ...request, headers: { ...request.headers, 'content-length': String(Buffer.byteLength(json)) }, body: JSON.parse(json) as unknown };
  if (spec.body === undefined) return request;
  // A JSON body made ready in memory (a batch) is shown as the service would read it; a file's, by its size.
  const opened = spec.body.contentType === 'application/json' ? spec.body.open() : undefined;
  if (Buffer.isBuffer(opened)) return { ...request, body: JSON.parse(opened.toString('utf8')) as unknown };
  return { ...request, body_bytes: spec.body.length };
}

/** The JSON body's text, made once for every attempt; a value that cannot be serialised (nested too deep, say) is a fault of ours, not of the network. */
function serialised(spec: RequestSpec, display: string): string | undefined {
  if (spec.json === undefined) return undefined;
  try {
    return JSON.stringify(spec.json);
  } catch (error) {
    throw new CsafeError(`${spec.method} ${display}: the request body could not be serialised: ${(error as Error).message}; nothing was sent`, { cause: error });
  }
}

/**
 * An absolute (pre-signed) address as the service gave it, checked before anything is sent: only
 * http(s) is fetched (never file: or another scheme), and a user name or password in it is
 * dropped, since node:http would send it as an Authorization header, a credential of the
 * address's own that no object store asks for.
 */
function absoluteUrl(method: Method, text: string): string {
  const protocol = URL.canParse(text) ? new URL(text).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new UnexpectedResponseError(`${method} ${redactUrl(text)}: the service gave an address that is not an http:// or https:// URL; nothing was sent`);
  }
  return withoutUserInfo(text);
}

/** The URL without `user:password@`; the text as it was when it has none (a pre-signed URL is signed as written). */
function withoutUserInfo(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.username === '' && url.password === '')) return text;
  url.username = '';
  url.password = '';
  return url.toString();
}

/**
 * A fault of csafe's own, not of the network, that no retry can mend: a JavaScript engine error
 * (a RangeError from a stack overflow, a TypeError such as node:http's ERR_INVALID_PROTOCOL) or
 * undici refusing its arguments. Network failures are plain Errors with a system or undici code.
 */
function isLocalFault(error: unknown): boolean {
  return error instanceof RangeError || error instanceof TypeError || error instanceof SyntaxError || error instanceof ReferenceError || LOCAL_CODES.has(errorCode(error) ?? '');
}

const LOCAL_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

/** A body as undici's types take it (the service's bodies are Buffers; a file's chunks go by upload()). */
const undiciBody = (body: Buffer | AsyncIterable<Buffer> | undefined): Buffer | Readable | undefined =>
  body === undefined || Buffer.isBuffer(body) ? body : Readable.from(body);

/**
 * Writes the chunks in order, each once the one before it has been handed to the kernel, and
 * asks for the next while one is being written: the source reads (and checks) the next chunk
 * while the socket sends. False when an answer came first and the rest was not sent.
 */
async function sendChunks(req: ClientRequest, chunks: AsyncIterable<Buffer>, answer: Promise<unknown>, answered: () => boolean): Promise<boolean> {
  const iterator = chunks[Symbol.asyncIterator]();
  let writing: Promise<void> = Promise.resolve();
  for (;;) {
    const next = await iterator.next().catch((error: unknown) => {
      throw new BodySourceError(error);
    });
    await Promise.race([writing, answer]);
    if (next.done) return true;
    if (answered()) {
      await iterator.return?.();
      return false;
    }
    writing = new Promise<void>((resolve, reject) => req.write(next.value, (error) => (error ? reject(error) : resolve())));
    // Awaited on the next turn, unless the source fails first: then the request is destroyed and this is of no interest.
    writing.catch(() => undefined);
  }
}

/**
 * One controller per attempt, aborted by its time limit or by any of `others`. At hundreds of
 * requests in flight this is several times cheaper than AbortSignal.timeout with AbortSignal.any,
 * whose signals linger until garbage-collected; done() clears the timer and the listeners at once.
 */
class AttemptSignal {
  private readonly controller = new AbortController();
  private readonly timer?: NodeJS.Timeout;
  /** Set when the time limit, not another signal, ended the attempt. */
  timedOut = false;

  constructor(
    limitMs: number | undefined,
    private readonly others: AbortSignal[],
  ) {
    for (const other of others) {
      if (other.aborted) this.controller.abort(other.reason);
      else other.addEventListener('abort', this.onAbort);
    }
    if (limitMs !== undefined) {
      // Unreferenced, as AbortSignal.timeout's: a pending limit alone keeps no process alive.
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      }, limitMs).unref();
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  done(): void {
    clearTimeout(this.timer);
    for (const other of this.others) other.removeEventListener('abort', this.onAbort);
  }

  private readonly onAbort = (event: Event) => this.controller.abort((event.target as AbortSignal).reason);
}

/** Failures that happen before a single byte of the request can have reached the server. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

function outcomeOf(attempt: Attempt): AttemptOutcome {
  if ('response' in attempt) return { kind: 'response', status: attempt.response.statusCode, headers: attempt.response.headers };
  if (attempt.error instanceof RequestTimeoutError) return { kind: 'timeout' };
  if (attempt.error instanceof UnexpectedResponseError) return { kind: 'unreadable' };
  return { kind: 'network-error', sent: attempt.error instanceof ConnectionError ? attempt.error.sent : true };
}

function withRetryCount(error: CsafeError, retries: number): CsafeError {
  if (retries > 0) error.message += ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})`;
  return error;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const MB = 1024 * 1024;
const sizeText = (bytes: number) => (bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`);

/**
 * A 2xx answer's JSON, as `read` reads it when given, or the error saying why it cannot be read
 * (not JSON, or not what `read` relies on): the attempt then failed, and the retry policy decides.
 */
function readJsonAnswer(text: string, status: number, what: string, read: (body: unknown) => unknown = (body) => body): unknown {
  try {
    return read(parseJsonAnswer(text, status, what));
  } catch (error) {
    if (error instanceof UnexpectedResponseError) return error;
    throw error;
  }
}

/** A 2xx answer from the API: JSON within the depth limit, or an error naming the endpoint. Only 204 may be empty. */
function parseJsonAnswer(text: string, status: number, what: string): unknown {
  if (text.trim() === '') {
    if (status === 204) return undefined;
    throw new UnexpectedResponseError(`${what}: the response is empty, expected JSON`);
  }
  if (nestsDeeperThan(text, RESPONSE_LIMITS.depth)) {
    throw new UnexpectedResponseError(`${what}: the response is nested deeper than ${RESPONSE_LIMITS.depth} levels, the limit`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UnexpectedResponseError(`${what}: the response is not JSON (it starts ${JSON.stringify(text.trimStart().slice(0, 60))})`, {
      hint: 'is the base URL right? A proxy or a login page may be answering instead of the service',
    });
  }
}

/** An error answer: its JSON if it is readable JSON, else its text (a proxy's page, an object store's XML). */
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  if (nestsDeeperThan(text, RESPONSE_LIMITS.depth)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The service's own words from an error body; the spec does not fix its shape, so several are read. */
export function serviceMessage(body: unknown, status: number): { message: string; type?: string; field?: string } {
  if (typeof body === 'string' && body.trim() !== '') return objectStoreMessage(body) ?? { message: body.trim().slice(0, 500) };
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const error = record.error;
    if (error && typeof error === 'object') {
      const e = error as Record<string, unknown>;
      if (typeof e.message === 'string') {
        return { message: e.message, type: typeof e.type === 'string' ? e.type : undefined, field: typeof e.field === 'string' ? e.field : undefined };
      }
    }
    if (typeof error === 'string') return { message: error };
    if (typeof record.message === 'string') return { message: record.message };
  }
  return { message: `HTTP ${status}` };
}

/**
 * An object store's S3-style XML error (`<Error><Code>…</Code><Message>…</Message></Error>`).
 * Only these two elements are read: S3 also echoes the signature it was sent in the body.
 */
function objectStoreMessage(text: string): { message: string; type?: string } | undefined {
  if (!/^\s*(<\?xml[^>]*>\s*)?<Error>/.test(text)) return undefined;
  const element = (name: string) => {
    const value = new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1];
    return value === undefined ? undefined : unescapeXml(value.trim());
  };
  const code = element('Code');
  const message = element('Message');
  if (code === undefined && message === undefined) return undefined;
  return { message: message ?? code!, type: code };
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** A body sent to an absolute (pre-signed) address: a file's upload, by upload() rather than undici. */
const isUpload = (spec: RequestSpec): spec is RequestSpec & { url: string; body: ReopenableBody } => spec.url !== undefined && spec.body !== undefined;

function isTimeout(error: unknown): boolean {
  const code = errorCode(error);
  return (code !== undefined && TIMEOUT_CODES.has(code)) || (error as Error)?.name === 'TimeoutError';
}

