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
  return dispatcherRequest.call(options.dispatcher, { ...options, ...originAndPath(url) });
}

/** The URL checked as undici's index checks it, and split into the origin and path a dispatcher takes. */
function originAndPath(url: string): { origin: string; path: string } {
  const target = undiciUtil.parseURL(url);
  return { origin: target.origin, path: target.search ? `${target.pathname}${target.search}` : target.pathname };
}

// Before undici compiles its parser, which it does on the first connection.
setHttpV8Flags();

/** An answer read whole as text, without a body stream. */
export interface TextAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

type TextRequestOptions = RequestOptions & {
  /** The most bytes the answer may have: a larger one (by its Content-Length, or as its bytes come) fails the request with `tooLarge()`. */
  maxBytes: number;
  tooLarge(): Error;
};

/**
 * request() for an answer read whole as text: undici's dispatch with a handler that keeps the
 * body's chunks, where request() makes a stream of the body for each answer and an async
 * iterator to read it. A bulk run makes thousands of requests, and the emulator on the same
 * cores gets the CPU this saves. Fails as request() would: undici's errors, or the signal's.
 */
export function requestText(url: string, options: TextRequestOptions): Promise<TextAnswer> {
  const { origin, path } = originAndPath(url);
  const { dispatcher, signal: given, maxBytes, tooLarge, ...dispatch } = options;
  const signal = given as AbortSignal | undefined;
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    const chunks: Buffer[] = [];
    let bytes = 0;
    let status = 0;
    let headers: TextAnswer['headers'] = {};
    const stop = (reason: unknown) => (controller === undefined || controller.aborted ? undefined : controller.abort(reason as Error));
    const onAbort = () => stop(signal?.reason);
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);
    dispatcher.dispatch({ ...dispatch, origin, path } as Dispatcher.DispatchOptions, {
      onRequestStart(started) {
        controller = started;
        if (signal?.aborted) onAbort();
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        status = statusCode;
        headers = responseHeaders as TextAnswer['headers'];
        const length = headers['content-length'];
        if (Number(Array.isArray(length) ? length[0] : length) > maxBytes) stop(tooLarge());
      },
      onResponseData(_controller, chunk) {
        bytes += chunk.length;
        if (bytes > maxBytes) stop(tooLarge());
        else chunks.push(chunk);
      },
      onResponseEnd() {
        settle();
        resolve({ statusCode: status, headers, text: new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) });
      },
      onResponseError(_controller, error) {
        settle();
        reject(error);
      },
    });
  });
}
