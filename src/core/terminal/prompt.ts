import type { ReadStream } from 'node:tty';
import { InterruptedError } from '../errors.js';
import type { IOStreams } from './io.js';
import { interruptionOf } from '../signals.js';

/** How csafe reads what the user types or pipes to it: a secret without echo, or the whole of a stream. */

/**
 * Reads a line from a terminal without echoing it (for secrets). Ctrl-C interrupts; so does
 * `signal` (SIGTERM), which raw mode would otherwise leave waiting for Enter.
 */
export function readHidden(io: IOStreams, prompt: string, signal?: AbortSignal): Promise<string> {
  const stdin = io.stdin as ReadStream;
  io.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      signal?.removeEventListener('abort', onAbort);
      io.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        // Ctrl-D is end of input, as in a terminal's own line reading: an empty key is then refused by the caller.
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new InterruptedError());
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    const onEnd = () => finish();
    const onAbort = () => finish(interruptionOf(signal!));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
    stdin.once('end', onEnd);
  });
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}
