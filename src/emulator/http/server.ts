import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { identifyCredential, requireCredential, type Credential } from './auth.js';
import { parseJsonBody, readBody } from './body.js';
import { batchRoutes } from '../batches/routes.js';
import { contentRoutes } from '../content/routes.js';
import { controlRoutes } from '../control/routes.js';
import { dataRoutes } from '../data/routes.js';
import { decisionRoutes } from '../decisions/routes.js';
import { deletionRoutes } from '../deletions/routes.js';
import { agentDecisionRoutes } from '../agent-decisions/routes.js';
import { EmulatorError, errorBody } from './errors.js';
import { eventRoutes } from '../events/routes.js';
import { faultInjector, type Fault, type FaultDraw } from './faults.js';
import { baseUrlOf } from './links.js';
import { olderImportRoutes } from '../older-imports/routes.js';
import { BodySample, logRequest, type RequestLogEntry } from './request-log.js';
import { streamRoutes } from '../streams/routes.js';
import { webhookRoutes } from '../webhooks/routes.js';
import { ResetGate } from './reset-gate.js';
import { takesScriptedFaults, takeScriptedFault } from './scripted-faults.js';
import { createRouter, type RawBody, type Route, type RouteResult, type Router } from './router.js';
import type { EmulatorConfig } from '../config.js';
import { takeQuirk, type State } from '../stores/state.js';
import { tokenRoutes } from '../tokens/routes.js';

/** How the emulator answers HTTP: every area's routes behind one server that checks credentials, injects faults, guards against other sites and logs. */

/** Every emulated area; a new area adds its route list here. */
export const ROUTES: readonly Route[] = [...tokenRoutes, ...contentRoutes, ...eventRoutes, ...dataRoutes, ...streamRoutes, ...decisionRoutes, ...deletionRoutes, ...agentDecisionRoutes, ...olderImportRoutes, ...batchRoutes, ...webhookRoutes, ...controlRoutes];

/** The service's own paths: delayed, faulted and logged. /_emulator is emulator control: none of these. */
const isServicePath = (path: string) => path === '/v1' || path.startsWith('/v1/');
/** The object store is logged too, so a test can see what reached a pre-signed URL (an Authorization header, say). */
const isLoggedPath = (path: string) => isServicePath(path) || path.startsWith('/_storage/');

/** Holds an answer back (--latency, a timeout fault) without keeping a closed emulator's process alive until it is due. */
const hold = (ms: number) => delay(ms, undefined, { ref: false });

/** What the server calls besides the routes: the fault sequence, and who is told of each request logged. */
interface ServerHooks {
  drawFault: FaultDraw;
  onRequest?: (entry: RequestLogEntry) => void;
  gate: ResetGate;
}

const isReset = (req: IncomingMessage, path: string) => req.method === 'POST' && path === '/_emulator/reset';
/**
 * The object store is not held to the reset gate: an upload lasts as long as its client likes (a
 * reset would wait for it), and one whose file a reset takes ends in a clean error of its own.
 */
const isObjectStorePath = (path: string) => path.startsWith('/_storage/');

export function createEmulatorServer(config: EmulatorConfig, state: State, onRequest?: (entry: RequestLogEntry) => void): Server {
  const router = createRouter(ROUTES);
  // Not part of State: /_emulator/reset must not restart the fault sequence a --seed replays.
  const hooks: ServerHooks = { drawFault: faultInjector(config.faults, config.now), onRequest, gate: new ResetGate() };
  // No limit on receiving a whole request (node's default is 5 minutes): uploads of several GB take
  // longer. Slow clients are cut off instead by the headers limit here, the body limit of readBody
  // and the idle limit of uploads.
  return createServer(
    {
      requestTimeout: 0,
      headersTimeout: config.headersTimeoutMs,
      // How often node looks for connections past the headers limit (30 s by default, longer than the limit).
      connectionsCheckingInterval: Math.min(1000, Math.max(10, config.headersTimeoutMs / 2)),
    },
    (req, res) => {
      serve(req, res, router, config, state, hooks).catch((error: unknown) => answerFailure(res, error));
    },
  );
}

async function serve(req: IncomingMessage, res: ServerResponse, router: Router, config: EmulatorConfig, state: State, hooks: ServerHooks) {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (!isServicePath(path)) return answer(req, res, path, router, config, state, hooks);
  const { inFlight } = state;
  inFlight.max = Math.max(inFlight.max, ++inFlight.now);
  try {
    await answer(req, res, path, router, config, state, hooks);
  } finally {
    inFlight.now--;
  }
}

async function answer(req: IncomingMessage, res: ServerResponse, path: string, router: Router, config: EmulatorConfig, state: State, { drawFault, onRequest, gate }: ServerHooks) {
  const receivedAt = config.now();
  const started = performance.now();
  const credential = identifyCredential(req.headers.authorization, config, state.tokens);
  // Before any fault is drawn: a browser on another site gets its 403 whatever the fault settings.
  const crossSite = crossSiteRefusal(req);
  const fault = crossSite === undefined ? faultFor(req, path, state, drawFault, config.now()) : undefined;
  const bodySample = new BodySample();

  const processRequest = () => dispatch(req, path, router, { credential, bodySample, config, state }).catch(toErrorResult);
  const processed = crossSite ?? (isServicePath(path) ? revokedKey(state) : undefined) ?? refusal(fault) ?? (fault?.kind === 'drop' || fault?.kind === 'cut' ? NO_ANSWER : undefined) ?? (await (isReset(req, path) ? gate.alone(processRequest) : isObjectStorePath(path) ? processRequest() : gate.process(processRequest)));
  const result = spoiled(fault, processed);

  if (isServicePath(path) && config.latencyMs > 0) await hold(config.latencyMs);
  if (isServicePath(path) && takeQuirk(state.quirks, 'held_requests')) await new Promise<void>((resolve) => state.inFlight.held.push(resolve));
  if (isLoggedPath(path)) {
    // Logged before the response is written, so a caller that reads the log next always sees this entry.
    const entry = logRequest(
      state,
      { req, path, status: result.status, auth: credential.kind, fault: fault?.kind ?? null, receivedAt, durationMs: performance.now() - started, body: bodySample },
      config.requestLogSize,
    );
    onRequest?.(entry);
  }
  if (fault?.kind === 'drop') return void res.destroy();
  if (fault?.kind === 'cut') return cutMidBody(req, res);
  if (fault?.kind === 'reset') return resetMidResponse(res, result);
  if (fault?.kind === 'timeout') await hold(fault.delayMs);
  if (!res.destroyed) send(res, result);
}

/** A request's fault: drawn at random (--faults) for the service's paths, else placed by a test's script, else the failing_requests quirk's. */
function faultFor(req: IncomingMessage, path: string, state: State, drawFault: FaultDraw, now: number): Fault | undefined {
  const drawn = isServicePath(path) ? drawFault() : undefined;
  const scripted = drawn ?? (takesScriptedFaults(path) ? takeScriptedFault(state.faultScript, req.method ?? 'GET', path, now) : undefined);
  return scripted ?? (isServicePath(path) ? quirkFault(state) : undefined);
}

/** A cut fault's: the connection is closed once some of the body has arrived, as a network that drops mid-upload. */
function cutMidBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.readableEnded) return void res.destroy();
  req.once('data', () => res.destroy());
  req.once('end', () => res.destroy());
}

/** The failing_requests quirk: a 503 for each of the next N /v1 requests, whatever the fault settings. */
const quirkFault = (state: State): Fault | undefined => (takeQuirk(state.quirks, 'failing_requests') ? { kind: '503' } : undefined);

/** The refused_requests quirk: a 401 for each of the next N /v1 requests, unprocessed, as once the key is revoked. */
function revokedKey(state: State): RouteResult | undefined {
  if (!takeQuirk(state.quirks, 'refused_requests')) return undefined;
  const error = new EmulatorError(401, 'the API key was revoked', undefined, { 'WWW-Authenticate': 'Bearer' });
  return { status: 401, body: errorBody(error), headers: error.headers };
}

/** 401, 429, 503, 408 and 502 faults answer without processing the request (the spec says so of 429 and 503). */
function refusal(fault: Fault | undefined): RouteResult | undefined {
  if (fault?.kind === '401') {
    const error = new EmulatorError(401, 'injected fault: the API key was revoked', undefined, { 'WWW-Authenticate': 'Bearer' });
    return { status: 401, body: errorBody(error), headers: error.headers };
  }
  if (fault?.kind === '408') {
    const error = new EmulatorError(408, 'injected fault: the request did not arrive in time; it was not processed', undefined, { Connection: 'close' });
    return { status: 408, body: errorBody(error), headers: error.headers };
  }
  if (fault?.kind === '502') return { status: 502, raw: { contentType: 'text/html; charset=utf-8', content: GATEWAY_PAGE } };
  if (fault?.kind === '429') {
    const error = new EmulatorError(429, 'injected fault: too many requests; retry after the Retry-After delay', undefined, { 'Retry-After': fault.retryAfter });
    return { status: 429, body: errorBody(error), headers: error.headers };
  }
  if (fault?.kind === '503') {
    const error = new EmulatorError(503, 'injected fault: temporarily unavailable; the request was not processed and is safe to retry');
    return { status: 503, body: errorBody(error) };
  }
  return undefined;
}

/** A drop fault's: the request log shows status 0, and the connection is closed with no answer. */
const NO_ANSWER: RouteResult = { status: 0, body: null };

/** What a proxy in front of a service answers when it cannot reach it, or when it reroutes: HTML, not the API's JSON. */
const GATEWAY_PAGE = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>\n';

/** 500 and garbage faults: the request was processed, and its answer is replaced by a failure or by a page no client can read. */
function spoiled(fault: Fault | undefined, result: RouteResult): RouteResult {
  if (fault?.kind === '500') return { status: 500, body: errorBody(new EmulatorError(500, 'injected fault: the service failed after processing the request')) };
  if (fault?.kind === 'garbage') return { status: 200, raw: { contentType: 'text/html; charset=utf-8', content: GATEWAY_PAGE.replace('502 Bad Gateway', 'Service rerouted') } };
  return result;
}

/** The request was processed; the client gets the headers and half the body, then the connection dies. */
function resetMidResponse(res: ServerResponse, result: RouteResult): void {
  const { contentType, content } = payloadOf(result);
  const payload = Buffer.from(typeof content === 'string' ? content : '');
  res.writeHead(result.status, { 'Content-Type': contentType, 'Content-Length': payload.length });
  const half = payload.subarray(0, Math.floor(payload.length / 2));
  res.write(half, () => res.destroy());
}

async function dispatch(
  req: IncomingMessage,
  path: string,
  router: Router,
  { credential, bodySample, config, state }: { credential: Credential; bodySample: BodySample; config: EmulatorConfig; state: State },
): Promise<RouteResult> {
  const method = req.method ?? 'GET';
  const match = router(method, path);
  if (match.kind === 'not_found') throw new EmulatorError(404, `no endpoint ${path}`);
  if (match.kind === 'method_not_allowed') {
    const allowed = match.allowed.join(', ');
    throw new EmulatorError(405, `${method} is not allowed on ${path}; allowed: ${allowed}`, undefined, { Allow: allowed });
  }
  const { route, params } = match;
  if (route.docsOnly && state.quirks.spec_only) throw new EmulatorError(404, `no endpoint ${method} ${path} (spec_only: only the spec's endpoints)`);
  if (route.auth) requireCredential(credential);
  const body = 'streamBody' in route ? Buffer.alloc(0) : await readBody(req, route.maxBodyBytes, config.bodyTimeoutMs);
  bodySample.add(body);
  if (!route.ownContentType) requireJsonContentType(req.headers['content-type'], body);
  return route.handle({ req, params, config, state, credential, body, bodySample, json: () => parseJsonBody(body) });
}

/**
 * Host names a DNS-rebinding page cannot take over: an IP address or localhost. A page served from
 * evil.example whose name is re-pointed at 127.0.0.1 sends `Host: evil.example`, and is refused.
 */
const LOCAL_HOST = /^(\[[0-9a-f:.]+\]|\d{1,3}(\.\d{1,3}){3}|localhost|[\w-]+\.localhost)(:\d+)?$/i;

/**
 * A browser on another site sends its own Origin; refusing it keeps web pages from driving the
 * emulator (a reset, say). Clients other than browsers send no Origin.
 */
function crossSiteRefusal(req: IncomingMessage): RouteResult | undefined {
  const host = req.headers.host;
  if (host !== undefined && !LOCAL_HOST.test(host)) {
    return toErrorResult(new EmulatorError(403, `Host "${host}" is refused: the emulator answers requests addressed to an IP address or localhost (a guard against DNS rebinding)`));
  }
  const origin = req.headers.origin;
  const own = baseUrlOf(req);
  if (origin === undefined || origin === own) return undefined;
  return toErrorResult(new EmulatorError(403, `requests from another origin (${origin}) are refused; the emulator answers its own origin, ${own}, and clients that send no Origin`));
}

/** JSON routes take JSON: a form or text/plain body, which a browser sends across sites without asking, is a 415. */
function requireJsonContentType(contentType: string | undefined, body: Buffer): void {
  if (contentType === undefined ? body.length === 0 : /^application\/json\s*(;|$)/i.test(contentType.trim())) return;
  const given = contentType === undefined ? 'no Content-Type' : `Content-Type "${contentType}"`;
  throw new EmulatorError(415, `expected Content-Type: application/json, got ${given}`);
}

/** An unexpected failure is a 500 that says no more than that: its message may name the emulator's own files. */
function toErrorResult(error: unknown): RouteResult {
  if (!(error instanceof EmulatorError)) logFailure(error);
  const failure = error instanceof EmulatorError ? error : new EmulatorError(500, 'the emulator failed to handle this request (details on its stderr)');
  return { status: failure.status, body: errorBody(failure), headers: failure.headers };
}

const logFailure = (error: unknown) => process.stderr.write(`csafe emulator: request failed: ${error instanceof Error ? error.message : String(error)}\n`);

/** A failure after the handler (a response too deeply nested to serialise, say): a 500 if nothing was sent yet. */
function answerFailure(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    logFailure(error);
    res.destroy();
  } else {
    send(res, toErrorResult(error));
  }
}

function send(res: ServerResponse, result: RouteResult): void {
  const { contentType, length, content } = payloadOf(result);
  res.writeHead(result.status, { 'Content-Type': contentType, ...(length !== undefined && { 'Content-Length': length }), ...result.headers });
  if (typeof content === 'string') res.end(content);
  else pipeline(content(), res).catch(() => res.destroy());
}

function payloadOf(result: RouteResult): RawBody {
  if ('raw' in result) return result.raw;
  const text = JSON.stringify(result.body);
  return { contentType: 'application/json; charset=utf-8', length: Buffer.byteLength(text), content: text };
}
