import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Credential } from './auth.js';
import { matchPath } from './path-pattern.js';
import type { BodySample } from './request-log.js';
import type { EmulatorConfig } from '../config.js';
import type { State } from '../stores/state.js';

/** How a request finds its handler: routes declared as data, matched by method and path pattern. */

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a handler gets: the request, its path parameters, the instance's config and state. */
export interface RouteContext {
  req: IncomingMessage;
  params: Readonly<Record<string, string>>;
  config: EmulatorConfig;
  state: State;
  credential: Credential;
  /** Empty for a streamBody route, whose handler reads `req` itself. */
  body: Buffer;
  /** What the request log keeps of the body: a streamBody route adds each chunk it reads. */
  bodySample: BodySample;
  /** The body parsed as JSON; undefined when the body is empty. Throws a 400 when it is not JSON. */
  json(): unknown;
}

/** A body sent as is rather than as JSON: the object store's XML, or a stored file. */
export interface RawBody {
  contentType: string;
  /** Absent for content produced as it is sent, which goes out chunked. */
  length?: number;
  content: string | (() => Readable);
}

export type RouteResult = { status: number; headers?: Record<string, string> } & ({ body: unknown } | { raw: RawBody });

interface RouteBase {
  method: HttpMethod;
  /** Path with `:name` segments, e.g. `/v1/data/:namespace/requests/:requestId`. */
  pattern: string;
  /** Whether the route needs a valid API key or access token. */
  auth: boolean;
  /** The route checks the Content-Type itself (the object store's); every other route takes JSON only. */
  ownContentType?: true;
  /** From the service's current docs, not the spec: under the spec_only quirk it answers 404, as an older service would. */
  docsOnly?: true;
  handle(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

/** One endpoint. Each area module exports a list of these; the server composes the lists. */
export type Route = RouteBase &
  (
    | {
        /** Larger bodies get a 413 before the rest is read. */
        maxBodyBytes: number;
      }
    | {
        /** The handler streams `ctx.req` itself (uploads of any size), so nothing is read for it. */
        streamBody: true;
      }
  );

type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: HttpMethod[] }
  | { kind: 'not_found' };

export type Router = (method: string, path: string) => RouteMatch;

export function createRouter(routes: readonly Route[]): Router {
  const compiled = routes.map((route) => ({ route, segments: route.pattern.split('/') }));
  return (method, path) => {
    const segments = path.split('/');
    const candidates = compiled.flatMap(({ route, segments: pattern }) => {
      const params = matchPath(pattern, segments);
      return params ? [{ route, params }] : [];
    });
    const found = candidates.find((candidate) => candidate.route.method === method);
    if (found) return { kind: 'found', ...found };
    if (candidates.length > 0) return { kind: 'method_not_allowed', allowed: candidates.map((c) => c.route.method) };
    return { kind: 'not_found' };
  };
}
