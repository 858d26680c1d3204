import { fstatSync, ftruncateSync, readdirSync, readFileSync, readlinkSync, write, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../errors.js';

/** How csafe writes a path that names one of its own open descriptors (`/dev/fd/3`, `/proc/self/fd/3`): through that descriptor. */

/** /dev/fd/N and the names /proc gives the same descriptor; /proc/PID/fd/N only for this process. */
const DESCRIPTOR_PATH = /^\/(?:dev\/fd|proc\/self\/fd|proc\/thread-self\/fd|proc\/(\d+)\/fd)\/(\d+)$/;
const STANDARD_NAMES: Readonly<Record<string, number>> = { '/dev/stdin': 0, '/dev/stdout': 1, '/dev/stderr': 2 };

/** The descriptor `path` names, or undefined for any other path. Relative ones too (`fd/3` in /dev). */
export function descriptorNamed(path: string): number | undefined {
  const absolute = resolve(path);
  if (STANDARD_NAMES[absolute] !== undefined) return STANDARD_NAMES[absolute];
  const match = DESCRIPTOR_PATH.exec(absolute);
  if (match === null || (match[1] !== undefined && Number(match[1]) !== process.pid)) return undefined;
  return Number(match[2]);
}

/**
 * The descriptor `path` names, to be written through, or undefined for a path that names none.
 * Opened by name, such a path is the file the shell opened (`3>>log`), and replacing that file lost
 * what it held; reopening it loses the descriptor's offset. One that is not open is refused, and
 * so is one of node's own (its numbers are free for the shell to give): a write into one its event
 * loop uses crashed the process.
 */
export function givenDescriptor(path: string): number | undefined {
  const descriptor = descriptorNamed(path);
  if (descriptor === undefined) return undefined;
  const flags = descriptorFlags(descriptor);
  if (flags === undefined || isNodesOwn(descriptor)) {
    throw new InputError(`${path}: descriptor ${descriptor} is not open`, { hint: `open it where csafe is started (${descriptor}>>FILE), or give the path of a file` });
  }
  if ((flags & O_ACCMODE) === O_RDONLY) {
    throw new InputError(`${path}: descriptor ${descriptor} is open for reading only`, { hint: `open it for writing where csafe is started (${descriptor}>>FILE), or give the path of a file` });
  }
  return descriptor;
}

const O_ACCMODE = 0o3;
const O_RDONLY = 0;

/** Its open flags from /proc (Linux); where there is none, only whether it is open (assumed written to, as given). */
function descriptorFlags(descriptor: number): number | undefined {
  let info: string;
  try {
    info = readFileSync(`/proc/self/fdinfo/${descriptor}`, 'utf8');
  } catch {
    return isOpen(descriptor) ? 1 : undefined;
  }
  const flags = /^flags:\s*([0-7]+)$/m.exec(info)?.[1];
  return flags === undefined ? undefined : parseInt(flags, 8);
}

/**
 * One node opened for its event loop: an epoll, an eventfd, or a pipe whose reading end is open in
 * this process too (its signal pipes). A pipe given to csafe to write to has its reader elsewhere.
 * Told only where /proc tells it.
 */
function isNodesOwn(descriptor: number): boolean {
  const object = linkOf(descriptor);
  if (object === undefined || !/^(anon_inode|pipe):/.test(object)) return false;
  if (object.startsWith('anon_inode:')) return true;
  const others = readdirSync(`/proc/self/fd`).map(Number).filter((other) => other !== descriptor);
  return others.some((other) => linkOf(other) === object && ((descriptorFlags(other) ?? O_ACCMODE) & O_ACCMODE) === O_RDONLY);
}

function linkOf(descriptor: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${descriptor}`);
  } catch {
    return undefined;
  }
}

function isOpen(descriptor: number): boolean {
  try {
    fstatSync(descriptor);
    return true;
  } catch {
    return false;
  }
}

/** What a writer needs of an open file: a FileHandle has it, and so has a descriptor csafe was given. */
export interface WriteHandle {
  write(bytes: Uint8Array, offset: number): Promise<{ bytesWritten: number }>;
  stat(): Promise<Stats>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/** A descriptor csafe was given, written at its offset (at its end where it was opened to append), and left open for whoever gave it. */
export function descriptorHandle(descriptor: number): WriteHandle {
  return {
    write: async (bytes, offset) => ({ bytesWritten: await writeAt(descriptor, bytes, offset) }),
    stat: async () => fstatSync(descriptor),
    truncate: async (length) => ftruncateSync(descriptor, length),
    close: async () => undefined,
  };
}

/**
 * A descriptor may be non-blocking: `3>&1` shares stdout's, which node makes so when stdout is a
 * pipe. A full pipe then answers EAGAIN, waited out as a blocking write waits for its reader.
 */
async function writeAt(descriptor: number, bytes: Uint8Array, offset: number): Promise<number> {
  for (;;) {
    try {
      return await writeOnce(descriptor, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, FULL_PIPE_POLL_MS));
  }
}

/** How long to wait before writing again to a full pipe. */
const FULL_PIPE_POLL_MS = 10;

const writeOnce = (descriptor: number, bytes: Uint8Array, offset: number) =>
  new Promise<number>((done, fail) => write(descriptor, bytes, offset, bytes.length - offset, null, (error, written) => (error ? fail(error) : done(written))));
