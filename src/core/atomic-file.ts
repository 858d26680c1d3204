import { open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Where a write of `path` by process `pid` is prepared. */
const temporaryPath = (path: string, pid: number) => `${path}.${pid}.tmp`;

/**
 * Replaces a file so that a reader, or a run after a crash or kill -9, sees either the old
 * content or the new, never a torn mix: write a temporary file beside it, fsync, rename over
 * the target, then fsync the directory so the rename itself survives a power cut.
 */
export const writeFileAtomic = (path: string, content: string): Promise<void> => writeAtomic(path, (handle) => handle.writeFile(content));

/** The same for content that arrives in chunks (a download): each written as it comes, so memory stays flat. */
export const writeStreamAtomic = (path: string, content: AsyncIterable<string | Buffer>): Promise<void> =>
  writeAtomic(path, async (handle) => {
    for await (const chunk of content) await handle.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  });

async function writeAtomic(path: string, fill: (handle: FileHandle) => Promise<void>): Promise<void> {
  const temporary = temporaryPath(path, process.pid);
  const handle = await open(temporary, 'w', 0o600);
  try {
    await fill(handle);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temporary, path);
  await syncDirectory(dirname(path));
}

/**
 * Removes the temporary files other processes left while writing `path` (`path.<pid>.tmp`, a
 * writer killed with -9 between write and rename). Only for a caller that holds the lock on
 * `path`: no other writer can be at work then, so every such file but our own is stale.
 */
export async function removeStaleTemporaries(path: string): Promise<void> {
  const directory = dirname(path);
  const prefix = `${basename(path)}.`;
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = name.slice(prefix.length, -'.tmp'.length);
    if (/^\d+$/.test(pid) && Number(pid) !== process.pid) await unlink(join(directory, name)).catch(() => undefined);
  }
}

async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r').catch(() => undefined);
  // Some file systems refuse fsync on a directory; the rename is still atomic there.
  await directory?.sync().catch(() => undefined);
  await directory?.close();
}
