import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Replaces a file so that a reader, or a run after a crash or kill -9, sees either the old
 * content or the new, never a torn mix: write a temporary file beside it, fsync, rename over
 * the target, then fsync the directory so the rename itself survives a power cut.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(content);
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

async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r').catch(() => undefined);
  // Some file systems refuse fsync on a directory; the rename is still atomic there.
  await directory?.sync().catch(() => undefined);
  await directory?.close();
}
