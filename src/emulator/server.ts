import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { identifyCredential, requireCredential, type Credential } from './auth.js';
import { parseJsonBody, readBody } from './body.js';
import { contentRoutes } from './content.js';
import { controlRoutes } from './control.js';
import { EmulatorError, errorBody } from './errors.js';
import { logRequest } from './request-log.js';
import { createRouter, type Route, type RouteResult, type Router } from './router.js';
import type { EmulatorConfig, State } from './state.js';
import { tokenRoutes } from './tokens.js';

/** Every emulated area; a new area adds its route list here. */
const ROUTES: readonly Route[] = [...tokenRoutes, ...contentRoutes, ...controlRoutes];

/** The service's own paths; everything else (/_emulator) is emulator control and is neither delayed nor logged. */
const isServicePath = (path: string) => path === '/v1' || path.startsWith('/v1/');

export function createEmulatorServer(config: EmulatorConfig, state: State): Server {
  const router = createRouter(ROUTES);
  return createServer((req, res) => {
    void serve(req, res, router, config, state);
  });
}

async function serve(req: IncomingMessage, res: ServerResponse, router: Router, config: EmulatorConfig, state: State) {
  const receivedAt = config.now();
  const started = performance.now();
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const credential = identifyCredential(req.headers.authorization, config, state);

  const result = await dispatch(req, path, router, credential, config, state).catch(toErrorResult);

  if (isServicePath(path)) {
    if (config.latencyMs > 0) await delay(config.latencyMs);
    // Logged before the response is written, so a caller that reads the log next always sees this entry.
    logRequest(state, { req, path, status: result.status, auth: credential.kind, receivedAt, durationMs: performance.now() - started });
  }
  send(res, result);
}

async function dispatch(
  req: IncomingMessage,
  path: string,
  router: Router,
  credential: Credential,
  config: EmulatorConfig,
  state: State,
): Promise<RouteResult> {
  const method = req.method ?? 'GET';
  const match = router(method, path);
  if (match.kind === 'not_found') throw new EmulatorError(404, `no endpoint ${path}`);
  if (match.kind === 'method_not_allowed') {
    const allowed = match.allowed.join(', ');
    throw new EmulatorError(405, `${method} is not allowed on ${path}; allowed: ${allowed}`, undefined, { Allow: allowed });
  }
  const { route, params } = match;
  if (route.auth) requireCredential(credential);
  const body = await readBody(req, route.maxBodyBytes);
  return route.handle({ req, params, config, state, credential, body, json: () => parseJsonBody(body) });
}

function toErrorResult(error: unknown): RouteResult {
  const failure =
    error instanceof EmulatorError
      ? error
      : new EmulatorError(500, `emulator failure: ${error instanceof Error ? error.message : String(error)}`);
  return { status: failure.status, body: errorBody(failure), headers: failure.headers };
}

function send(res: ServerResponse, result: RouteResult): void {
  const payload = JSON.stringify(result.body);
  res.writeHead(result.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    ...result.headers,
  });
  res.end(payload);
}
