import { PassThrough } from 'node:stream';
import { createIOStreams, type IOStreams } from '../../src/core/io.js';

/** IOStreams over buffers, with TTY flags of the test's choosing (the seam gh calls IOStreams). */
export function bufferIO(options: { tty?: boolean; verbose?: boolean; quiet?: boolean } = {}): { io: IOStreams; stdout: () => string; stderr: () => string } {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  const tty = Boolean(options.tty);
  const io = createIOStreams({
    stdin: Object.assign(new PassThrough(), { isTTY: false }),
    stdout: Object.assign(out, { isTTY: tty }),
    stderr: Object.assign(err, { isTTY: tty }),
    env: {},
    verbose: options.verbose,
    quiet: options.quiet,
  });
  return { io, stdout: () => stdout, stderr: () => stderr };
}
