import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { descriptorNamed, givenDescriptor, type WriteHandle } from './named-descriptor.js';
import { openToWriteNamed } from './open-to-write.js';
import { FileWriteError, writeErrorReason } from './write-errors.js';

/** Where the records a run could not send go, to be sent again, and what a failure to write them does. */

/** One record for a file, with the input line it came from (named when it cannot be written). */
export interface RecordLine {
  text: string;
  line: number;
}

/**
 * Records that could not be sent (or are not valid), appended one JSON line each so they can be
 * resent. The file is created on the first record only: a clean run leaves nothing behind.
 *
 * This file is the safety net, so a write that fails is never silent: the append throws a
 * FileWriteError naming the file and the records it does not hold, the bytes of the failed write
 * are cut off again (no half line; see takeBack), and every later append throws the same error, counting its
 * records too. Appends are written one after another, each complete before the next starts.
 */
export class FailedFile {
  private handle?: WriteHandle;
  private bytes = 0;
  /** The file's size when this run first appended to it: what earlier runs left there. */
  private before = 0;
  private queue: Promise<void> = Promise.resolve();
  private failure?: FileWriteError;
  count = 0;

  constructor(readonly path: string) {}

  /** Bytes the file held before this run appended to it (a file named with --failed is appended to, run after run). */
  get priorBytes(): number {
    return this.before;
  }

  /** Bytes this run appended. */
  get appendedBytes(): number {
    return this.bytes - this.before;
  }

  append(record: unknown, line: number): Promise<void> {
    return this.appendLines([{ text: JSON.stringify(record), line }]);
  }

  /** Lines written as given: text already serialised, or an input line that is not JSON, kept byte for byte. */
  appendLines(records: readonly RecordLine[]): Promise<void> {
    const written = this.queue.then(() => this.write(records));
    this.queue = written.catch(() => undefined);
    return written;
  }

  /**
   * Appends at once, synchronously, for a process about to leave (a second Ctrl-C), beside any write
   * still in progress (O_APPEND keeps both whole). Never
   * waits for a reader: a named pipe no one reads, or full, ends the writing (ENXIO, EAGAIN), as
   * any other failure does, thrown as a FileWriteError counting the records not written. A record
   * at a time, so a full pipe takes whole records up to the one that does not fit (a write of up
   * to 4 KiB into a pipe is whole or refused); a longer one it takes in part is finished.
   */
  appendNow(records: readonly RecordLine[]): void {
    let written = 0;
    let fd: number | undefined;
    let given: number | undefined;
    try {
      // A descriptor csafe was given (`/dev/fd/3`) is written at its offset, and left open.
      given = givenDescriptor(this.path);
      fd = given ?? openSync(this.path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o600);
      // First written here, the file's size is what earlier runs left: the command that resends this run's records starts after it.
      if (this.handle === undefined && this.bytes === 0) {
        this.bytes = this.before = fstatSync(fd).size;
        if (endsMidLine(this.path, this.before)) this.bytes = this.before += writeSync(fd, NEWLINE);
      }
      for (const record of records) {
        const data = Buffer.from(record.text + '\n');
        writeWhole(fd, data);
        this.bytes += data.length;
        written++;
      }
    } catch (error) {
      const failure = new FileWriteError(this.path, writeErrorReason(error));
      failure.addUnwritten(records.slice(written).map((record) => record.line));
      throw failure;
    } finally {
      if (fd !== undefined && given === undefined) closeSync(fd);
      this.count += written;
    }
  }

  /** Never throws: a failed write has already been thrown to the run. */
  async close(): Promise<void> {
    await this.queue;
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
  }

  private async write(records: readonly RecordLine[]): Promise<void> {
    if (records.length === 0) return;
    if (this.failure === undefined) {
      try {
        await this.writeAll(Buffer.from(records.map((r) => r.text + '\n').join('')));
        this.count += records.length;
        return;
      } catch (error) {
        this.failure = new FileWriteError(this.path, writeErrorReason(error));
      }
    }
    this.failure.addUnwritten(records.map((r) => r.line));
    throw this.failure;
  }

  private async writeAll(data: Buffer): Promise<void> {
    if (this.handle === undefined) {
      this.handle = await openToWriteNamed(this.path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
      this.bytes = this.before = (await this.handle.stat()).size;
      if (endsMidLine(this.path, this.before)) this.bytes = this.before += (await this.handle.write(NEWLINE, 0)).bytesWritten;
    }
    const handle = this.handle;
    let offset = 0;
    try {
      while (offset < data.length) offset += (await handle.write(data, offset)).bytesWritten;
      this.bytes += data.length;
    } catch (error) {
      await takeBack(this.path, handle, data.subarray(0, offset)).catch(() => undefined);
      throw error;
    }
  }
}

const NEWLINE = Buffer.from('\n');

/**
 * Whether the file, `size` bytes long, ends inside a line: a run killed as it appended (kill -9, a
 * power cut) left half a record there, which this run's first record would join, and a resend of
 * the file lose. That half line is ended first; it stays, one line that is not JSON, for a resend
 * to name. Only a regular file opened by name is read back: a descriptor csafe was given may be
 * open only to write.
 */
function endsMidLine(path: string, size: number): boolean {
  if (size === 0 || descriptorNamed(path) !== undefined) return false;
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const last = Buffer.alloc(1);
    return fstatSync(fd).isFile() && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== NEWLINE[0];
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Takes the bytes a failed write got into the file off again, so no half line is left, but only
 * while they are still its last bytes, as read back now. A --failed file without a checkpoint has
 * no lock: another run may append to it between this run's writes, or after the bytes this one
 * wrote, and cutting to this run's own idea of the file's size cut that run's records. Left where
 * another's bytes follow them, the half line is the lesser loss. Not marked with a newline either:
 * the failures at hand (a full disk, `ulimit -f`) refuse that too. Between this check and the
 * cut, another append could still slip in: without a lock, that window is the one left.
 */
async function takeBack(path: string, handle: WriteHandle, written: Buffer): Promise<void> {
  if (written.length === 0) return;
  const file = await handle.stat();
  // A pipe has nothing to take back.
  if (!file.isFile() || file.size < written.length) return;
  const tail = Buffer.alloc(written.length);
  const reader = await open(path, 'r');
  try {
    await reader.read(tail, 0, tail.length, file.size - tail.length);
  } finally {
    await reader.close();
  }
  if (tail.equals(written)) await handle.truncate(file.size - written.length);
}

/** How long a record a full pipe took in part may wait for the rest to go: the process is leaving. */
const FINISH_RECORD_MS = 1000;

/** Writes `data` whole; EAGAIN before its first byte is thrown, after it (a pipe took part) waited out a while, the record being cut otherwise. */
function writeWhole(fd: number, data: Buffer): void {
  const deadline = Date.now() + FINISH_RECORD_MS;
  for (let offset = 0; offset < data.length; ) {
    try {
      offset += writeSync(fd, data, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || offset === 0 || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}
