import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import dispatcherRequest from 'undici/lib/api/api-request.js';
import undiciUtil from 'undici/lib/core/util.js';

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

/*
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with Liftoff, then
 * recompiles its hot parse function with TurboFan on a background thread, and a process that is
 * otherwise done waits for that compile before it exits: 60–80 ms, more than the request itself.
 * Liftoff's code parses our answers as fast (measured: 4,000 requests, a 200 MB download). Set
 * before undici compiles its parser, which it does on the first connection.
 */
setFlagsFromString('--liftoff-only');
