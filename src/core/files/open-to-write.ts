import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** How csafe opens a file it writes that may be a named pipe, without waiting for ever for a reader. */

/**
 * Opens `path` to write (`flags`: O_WRONLY and what else the caller wants), without waiting for a
 * reader: a named pipe no one reads is ENXIO at once, where a plain open waits in a thread that
 * even Ctrl-C and process.exit wait for. A pipe with a reader, or a device, is then opened again
 * the usual way (blocking writes), before the first is closed, so its reader never sees an end.
 */
export async function openToWrite(path: string, flags: number, mode?: number): Promise<FileHandle> {
  const first = await open(path, flags | constants.O_NONBLOCK, mode);
  try {
    if ((await first.stat()).isFile()) return first;
    const handle = await open(path, flags & ~constants.O_CREAT, mode);
    await first.close();
    return handle;
  } catch (error) {
    await first.close().catch(() => undefined);
    throw error;
  }
}
