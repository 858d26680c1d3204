import { spawn } from 'node:child_process';

/**
 * A reader of the named pipe at `path` (cat): what it read, once `done` settles. Its end is
 * listened for at once, so a reader done before a test awaits it (the writer closed first) is
 * never missed, which once left a test waiting on nothing.
 */
export function readPipe(path: string): { done: Promise<void>; text: () => string } {
  const reader = spawn('cat', [path]);
  let read = '';
  reader.stdout.on('data', (chunk) => (read += chunk));
  const done = new Promise<void>((resolve) => reader.once('close', () => resolve()));
  return { done, text: () => read };
}
