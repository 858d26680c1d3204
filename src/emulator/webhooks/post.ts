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

/**
 * POSTs `body` once, never following a redirect (a 3xx is an answer other than 2xx); resolves, never
 * rejects. A kept-alive connection the receiver closed just as it was reused is not the receiver's
 * answer: the request is made again, once, on a new connection.
 */
export function postOnce({ url, headers, body, timeoutMs, answerBytes, signal }: PostOptions): Promise<PostOutcome> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ error: 'stopped' });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ error: `not a URL: ${url}` });
    }
    const send = target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : undefined;
    if (send === undefined) return resolve({ error: `not an http(s) URL: ${url}` });
    let outcome: PostOutcome | undefined;
    /** The receiver's status, once its answer has begun. */
    let status: number | undefined;
    let request: ReturnType<typeof httpRequest>;
    const end = (reached: PostOutcome) => {
      if (outcome !== undefined) return;
      outcome = reached;
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve(reached);
    };
    const timer = setTimeout(() => {
      // A status came: the answer is the receiver's (a 2xx a success) even if its body never ends.
      end(status === undefined ? { error: `no answer within ${timeoutMs / 1000} s` } : answerOutcome(status, `the answer did not end within ${timeoutMs / 1000} s`));
      request.destroy();
    }, timeoutMs);
    const stop = () => {
      end({ error: 'stopped' });
      request.destroy();
    };
    signal.addEventListener('abort', stop, { once: true });
    const attempt = (again: boolean) => {
      const sent = send(target, { method: 'POST', agent: agents[target.protocol as keyof typeof agents], headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } });
      request = sent;
      sent.on('error', (error: NodeJS.ErrnoException) => {
        if (again && sent.reusedSocket && status === undefined && outcome === undefined && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return attempt(false);
        end({ error: describeRequestError(error) });
      });
      sent.on('response', (response) => {
        status = response.statusCode ?? 0;
        readAnswer(response, answerBytes, (text) => end(answerOutcome(response.statusCode ?? 0, text)));
      });
      sent.end(body);
    };
    attempt(true);
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
