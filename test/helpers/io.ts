import { PassThrough } from 'node:stream';
import { createIOStreams, type IOStreams } from '../../src/core/io.js';

/** What stdin holds: all of it is there and then it ends; `tty` makes it a terminal (raw mode is accepted and ignored). */
export interface BufferedStdin {
  text: string;
  tty?: boolean;
}

/** IOStreams over buffers, with TTY flags of the test's choosing (the seam gh calls IOStreams). Without `stdin`, stdin never ends. */
export function bufferIO(options: { tty?: boolean; verbose?: boolean; quiet?: boolean; stdin?: BufferedStdin } = {}): { io: IOStreams; stdout: () => string; stderr: () => string } {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  const tty = Boolean(options.tty);
  const stdin = Object.assign(new PassThrough(), { isTTY: Boolean(options.stdin?.tty), setRawMode: () => undefined });
  if (options.stdin !== undefined) stdin.end(options.stdin.text);
  const io = createIOStreams({
    stdin,
    stdout: Object.assign(out, { isTTY: tty }),
    stderr: Object.assign(err, { isTTY: tty }),
    env: {},
    verbose: options.verbose,
    quiet: options.quiet,
  });
  return { io, stdout: () => stdout, stderr: () => stderr };
}
