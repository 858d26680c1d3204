import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import dispatcherRequest from 'undici/lib/api/api-request.js';
import undiciUtil from 'undici/lib/core/util.js';
import { setHttpV8Flags } from './v8-flags.js';

/*
 * Which parts of undici the client loads, and why not its index: that loads every part of undici
 * (fetch, WebSocket, mocks, caches, interceptors: 110 files) and, by reading globalThis.Headers,
 * Node's own bundled copy of undici with a second WebAssembly parser: ≈ 40 ms of the start-up of a
 * one-request command. The client needs three of its files: the Agent, the request() undici's index
 * puts on every dispatcher, and its URL check. (A later undici that moves them fails the build:
 * scripts/bundle.mjs resolves them.)
 */
export { Agent };

type RequestOptions = { dispatcher: Dispatcher } & Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request(url, options)`, as its index makes it: the URL checked and split into origin and path. */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const target = undiciUtil.parseURL(url);
  const path = target.search ? `${target.pathname}${target.search}` : target.pathname;
  return dispatcherRequest.call(options.dispatcher, { ...options, origin: target.origin, path });
}

// Before undici compiles its parser, which it does on the first connection.
setHttpV8Flags();
