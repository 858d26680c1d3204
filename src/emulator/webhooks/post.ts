import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * One webhook attempt over node:http rather than fetch: in a burst of thousands of deliveries,
 * fetch's web streams and an AbortSignal per attempt cost the emulator more CPU than the requests
 * it was serving. Connections to a receiver are kept alive between attempts.
 */

/** What an attempt came to: the receiver's status (with its first bytes when not 2xx), or why there was none. */
export type PostOutcome = { status: number; error?: string } | { error: string };

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** At most this much of a receiver's answer is read, kept as the error of a non-2xx; the rest is not read (a receiver may answer without end). */
  answerBytes: number;
  /** Stops the attempt when aborted (the emulator stopping): it then comes to an error. */
  signal: AbortSignal;
}

const keepAlive = { keepAlive: true };
const agents = { 'http:': new HttpAgent(keepAlive), 'https:': new HttpsAgent(keepAlive) };

export const isSuccess = (outcome: PostOutcome) => 'status' in outcome && outcome.status >= 200 && outcome.status < 300;

/** POSTs `body` once, never following a redirect (a 3xx is an answer other than 2xx); resolves, never rejects. */
export function postOnce({ url, headers, body, timeoutMs, answerBytes, signal }: PostOptions): Promise<PostOutcome> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, { method: 'POST', agent: agents[target.protocol as keyof typeof agents], headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } });
    let outcome: PostOutcome | undefined;
    const end = (reached: PostOutcome) => {
      if (outcome !== undefined) return;
      outcome = reached;
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve(reached);
    };
    const timer = setTimeout(() => {
      end({ error: `no answer within ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    const stop = () => {
      end({ error: 'stopped' });
      request.destroy();
    };
    signal.addEventListener('abort', stop, { once: true });
    request.on('error', (error) => end({ error: describeRequestError(error) }));
    request.on('response', (response) => readAnswer(response, answerBytes, (text) => end(answerOutcome(response.statusCode ?? 0, text))));
    request.end(body);
  });
}

function answerOutcome(status: number, text: string): PostOutcome {
  if (status >= 200 && status < 300) return { status };
  return { status, error: text === '' ? `answered ${status}` : text };
}

/** Reads at most `limit` bytes of an answer: all of a short one (so its connection is kept), then stops reading a longer one. */
function readAnswer(response: IncomingMessage, limit: number, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = () => done(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
  response.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size < limit) return;
    finish();
    response.destroy();
  });
  response.on('end', finish);
  response.on('error', finish);
}

/** `connection refused` rather than `connect ECONNREFUSED 127.0.0.1:9`. */
function describeRequestError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  return error.message;
}
