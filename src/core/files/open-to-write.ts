import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { InterruptedError } from '../errors.js';
import { descriptorHandle, givenDescriptor, type WriteHandle } from './named-descriptor.js';

/** How csafe opens a file it writes that may be a named pipe, waiting for its reader where Ctrl-C can still end the wait. */

/** How long to wait before asking again whether a named pipe has a reader. */
const READER_POLL_MS = 100;

/** For a wait that is all the run is doing (a download): ended by the signal (InterruptedError), and told once as it starts. */
export interface ReaderWait {
  signal?: AbortSignal;
  waiting?(): void;
}

/**
 * Opens `path` to write (`flags`: O_WRONLY and what else the caller wants). A named pipe waits for
 * its reader, as a plain open does, but by asking again (O_NONBLOCK: ENXIO while there is none)
 * rather than in a thread of the pool: there, a pipe no one ever read kept csafe for ever, as
 * neither Ctrl-C nor process.exit can end a thread's wait. Once there is a reader, the pipe is
 * opened again the usual way (blocking writes) before the first is closed, so its reader never
 * sees an end. Anything else is opened as it is (O_NONBLOCK means nothing to a regular file).
 */
export async function openToWrite(path: string, flags: number, mode?: number, wait: ReaderWait = {}): Promise<FileHandle> {
  const first = await openWhenRead(path, flags | constants.O_NONBLOCK, mode, wait);
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

/** openToWrite, where a path that names a descriptor csafe was given (`/dev/fd/3`) is that descriptor, written at its offset. */
export async function openToWriteNamed(path: string, flags: number, mode?: number, wait: ReaderWait = {}): Promise<WriteHandle> {
  const descriptor = givenDescriptor(path);
  return descriptor === undefined ? openToWrite(path, flags, mode, wait) : descriptorHandle(descriptor);
}

async function openWhenRead(path: string, flags: number, mode: number | undefined, wait: ReaderWait): Promise<FileHandle> {
  for (let told = false; ; told = true) {
    try {
      return await open(path, flags, mode);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    }
    if (wait.signal?.aborted) throw new InterruptedError();
    if (!told) wait.waiting?.();
    await new Promise((resolve) => setTimeout(resolve, READER_POLL_MS));
  }
}
