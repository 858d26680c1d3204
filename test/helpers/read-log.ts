// Loaded with `node --import` (in NODE_OPTIONS): counts how often the process opens the file
// CSAFE_READ_LOG_PATH names and how many bytes it reads from it, by fs.open/fs.read (what read
// streams use) and fs/promises open/FileHandle.read, and writes {opens, bytes} as JSON to the
// file CSAFE_READ_LOG at exit, so a test can say how many times a command read its input.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

const require = createRequire(import.meta.url);
const fs = require('node:fs') as typeof import('node:fs');
const watched = process.env.CSAFE_READ_LOG_PATH === undefined ? undefined : resolve(process.env.CSAFE_READ_LOG_PATH);
const counts = { opens: 0, bytes: 0 };
const fds = new Set<number>();
const isWatched = (path: unknown) => watched !== undefined && (typeof path === 'string' || path instanceof URL) && resolve(String(path)) === watched;

type Callback = (error: Error | null, ...rest: unknown[]) => void;
const openWithCallback = fs.open;
fs.open = ((path: string, ...rest: unknown[]) => {
  const callback = rest.pop() as Callback;
  openWithCallback(path, ...(rest as []), (error: Error | null, fd: number) => {
    if (!error && isWatched(path)) {
      counts.opens++;
      fds.add(fd);
    }
    callback(error, fd);
  });
}) as typeof fs.open;
const readWithCallback = fs.read;
fs.read = ((fd: number, ...rest: unknown[]) => {
  const callback = rest.pop() as Callback;
  (readWithCallback as (...args: unknown[]) => void)(fd, ...rest, (error: Error | null, bytesRead: number, buffer: unknown) => {
    if (!error && fds.has(fd)) counts.bytes += bytesRead;
    callback(error, bytesRead, buffer);
  });
}) as typeof fs.read;
const openHandle = fs.promises.open;
fs.promises.open = async (path, ...rest) => {
  const handle = await openHandle(path, ...rest);
  if (isWatched(path)) {
    counts.opens++;
    const read = handle.read.bind(handle) as (...args: unknown[]) => ReturnType<FileHandle['read']>;
    handle.read = (async (...args: unknown[]) => {
      const result = await read(...args);
      counts.bytes += result.bytesRead;
      return result;
    }) as FileHandle['read'];
  }
  return handle;
};
syncBuiltinESMExports();
process.on('exit', () => {
  if (process.env.CSAFE_READ_LOG !== undefined) writeFileSync(process.env.CSAFE_READ_LOG, JSON.stringify(counts));
});
