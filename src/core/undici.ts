import { setFlagsFromString } from 'node:v8';
import type { Agent as AgentClass, Dispatcher } from 'undici';

/*
 * Start-up (issue 14). undici's index loads every part of undici (fetch, WebSocket, mocks, caches,
 * interceptors: 110 files) and, by reading globalThis.Headers, Node's own bundled copy of undici
 * with a second WebAssembly parser: ≈ 40 ms of a one-request command. The client needs three of
 * its files: the Agent, the request() undici's index puts on every dispatcher, and its URL check.
 */
type RequestOptions = { dispatcher: Dispatcher } & Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

interface UndiciParts {
  Agent: typeof AgentClass;
  /** undici's `request(url, options)`. */
  request: (url: string, options: RequestOptions) => Promise<Dispatcher.ResponseData>;
}

/** undici's Agent and request(), from the files that hold them; from its index if a later undici has moved them. */
async function loadParts(): Promise<UndiciParts> {
  try {
    const [agent, api, util] = await Promise.all([
      import('undici/lib/dispatcher/agent.js'),
      import('undici/lib/api/api-request.js'),
      import('undici/lib/core/util.js'),
    ]);
    // What undici's index does for its top-level request(): the URL checked and split into origin and path.
    const request = (url: string, options: RequestOptions) => {
      const target = util.default.parseURL(url);
      const path = target.search ? `${target.pathname}${target.search}` : target.pathname;
      return api.default.call(options.dispatcher, { ...options, origin: target.origin, path });
    };
    return { Agent: agent.default, request };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return import('undici');
  }
}

/*
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with Liftoff, then
 * recompiles its hot parse function with TurboFan on a background thread, and a process that is
 * otherwise done waits for that compile before it exits: 60–80 ms, more than the request itself.
 * Liftoff's code parses our answers as fast (measured: 4,000 requests, a 200 MB download). Set
 * before undici compiles its parser, which it does on the first connection.
 */
setFlagsFromString('--liftoff-only');

export const { Agent, request } = await loadParts();
export type Agent = AgentClass;
