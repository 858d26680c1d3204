import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { Chalk } from 'chalk';
import { createIOStreams, type IOStreams } from '../../src/core/terminal/io.js';

/** What stdin holds: all of it is there and then it ends; `tty` makes it a terminal (raw mode is accepted and ignored). */
export interface BufferedStdin {
  text: string;
  tty?: boolean;
}

/** IOStreams over buffers, with TTY flags of the test's choosing (the seam gh calls IOStreams). Without `stdin`, stdin never ends. */
export function bufferIO(options: { tty?: boolean; verbose?: boolean; quiet?: boolean; progress?: boolean; stderrColumns?: number; stdin?: BufferedStdin; env?: NodeJS.ProcessEnv } = {}): { io: IOStreams; stdout: () => string; stderr: () => string } {
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
    stderr: Object.assign(err, { isTTY: tty }, options.stderrColumns !== undefined && { columns: options.stderrColumns }),
    env: options.env ?? {},
    verbose: options.verbose,
    quiet: options.quiet,
    progress: options.progress,
    Chalk,
  });
  return { io, stdout: () => stdout, stderr: () => stderr };
}

/**
 * A terminal of `columns` columns whose frames (as ora draws them) can be read back: ora starts
 * each frame with `cursorTo(0)`, so each frame becomes a line of `frames()`, escape codes removed.
 */
export function framedTerminalIO(columns: number): { io: IOStreams; frames: () => string[] } {
  const terminal = bufferIO({ tty: true, stderrColumns: columns });
  Object.assign(terminal.io.stderr, { cursorTo: () => terminal.io.stderr.write('\n'), clearLine: () => true, moveCursor: () => true });
  return { io: terminal.io, frames: () => stripVTControlCharacters(terminal.stderr()).split('\n').filter((line) => line !== '') };
}
