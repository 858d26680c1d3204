import { fstatSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { CsafeError } from '../errors.js';
import type { HttpClient, HttpResponse, ReopenableBody } from '../http/client.js';

/** How a file's bytes reach a pre-signed URL: a chunk at a time, in flat memory, whole again on every attempt. */

/** Bigger reads than the default 64 KiB: fewer system calls and socket writes, for the same flat memory. */
const READ_CHUNK_BYTES = 1048576;

/**
 * A file of known size read from its first byte a chunk at a time, into two buffers by turns:
 * memory stays flat and no garbage is left for the collector. A chunk's bytes are good until the
 * next-but-one chunk is asked for, so a sender can write one while the next is read (and
 * checked). No byte past `size` is read.
 */
export class FileChunks {
  private readonly buffers: readonly [Buffer, Buffer];
  private position = 0;
  /** Chunks given out since the first byte: the next goes into buffers[given % 2]. */
  private given = 0;
  /** Bytes of buffers[0] that hold the file's first chunk still (0 once another chunk is read into it). */
  private firstHeld = 0;
  /** The furthest byte read from disk: a read below it reads those bytes again. */
  private readTo = 0;
  /** Whether any bytes were read from disk a second time (after `rewind`). */
  private readAgain = false;
  /** When the file's content or metadata last changed, as it was when opened. */
  private readonly changedAt: bigint;

  private constructor(private readonly handle: FileHandle, private readonly path: string, readonly size: number) {
    const bytes = Math.max(1, Math.min(READ_CHUNK_BYTES, size));
    this.buffers = [Buffer.allocUnsafeSlow(bytes), Buffer.allocUnsafeSlow(bytes)];
    this.changedAt = this.changeTime();
  }

  static async open(path: string, size: number): Promise<FileChunks> {
    return new FileChunks(await open(path, 'r'), path, size);
  }

  /**
   * Whether bytes given out since the file was opened may differ from those given out before at
   * the same place: some were read from disk again, and the file was written meanwhile (its
   * change time moved; nothing but the kernel sets it). A check of the first reading then says
   * nothing of the second.
   */
  get mayHaveChanged(): boolean {
    return this.readAgain && this.changeTime() !== this.changedAt;
  }

  private changeTime(): bigint {
    return fstatSync(this.handle.fd, { bigint: true }).ctimeNs;
  }

  /** Bytes given out since the first (or since `rewind`). */
  get read(): number {
    return this.position;
  }

  /** The next chunk, or undefined at the end; a file that ends early (it shrank) is an error. */
  async next(): Promise<Buffer | undefined> {
    if (this.position >= this.size) return undefined;
    const buffer = this.buffers[this.given % 2]!;
    const wanted = Math.min(buffer.length, this.size - this.position);
    if (this.position === 0 && this.firstHeld === wanted) {
      this.position = wanted;
      this.given = 1;
      return buffer.subarray(0, wanted);
    }
    if (this.position < this.readTo) this.readAgain = true;
    const { bytesRead } = await this.handle.read(buffer, 0, wanted, this.position);
    if (bytesRead === 0) throw new CsafeError(`${this.path}: the file shrank below the ${this.size} bytes it had; the upload was stopped before its end`);
    this.readTo = Math.max(this.readTo, this.position + bytesRead);
    if (this.given % 2 === 0) this.firstHeld = this.position === 0 ? bytesRead : 0;
    this.position += bytesRead;
    this.given++;
    return buffer.subarray(0, bytesRead);
  }

  /** Back to the first byte, for another attempt; a first chunk still in the buffer is not read again. */
  rewind(): void {
    this.position = 0;
    this.given = 0;
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** How far the current attempt has got; a retry starts again from 0. */
export interface UploadProgress {
  sent: number;
  total: number;
  elapsedMs: number;
}

export interface UploadOptions {
  /** Called every `progressIntervalMs` while the upload runs (not on every chunk), and as it ends, however it ends. */
  onProgress?: (progress: UploadProgress) => void;
  progressIntervalMs?: number;
  now: () => number;
  /** The Content-Type the address was signed for (default application/json). */
  contentType?: string;
}

/** A file of known size, read from disk; `size` is sent as Content-Length and no byte past it is read. */
export interface UploadFile {
  path: string;
  /** How messages name it (`stdin` for a copy of it); default its path. */
  name?: string;
  size: number;
  /** The file already open (to be read once by a check and the upload together); else the upload opens it. */
  chunks?: FileChunks;
  /**
   * Sees every chunk before it is sent, with its offset in the file (a retry starts again from 0).
   * What it throws stops the upload before its last byte, and is thrown as it is.
   */
  inspect?: (chunk: Buffer, offset: number) => void;
}

/**
 * PUTs a file to a pre-signed URL through the one HTTP core. Object stores refuse chunked
 * uploads, so the body has an explicit Content-Length; it is read from disk a chunk at a time,
 * from the first byte again for every attempt, so a retry sends the whole file rather than the
 * rest of a half-read stream. No whole-exchange time limit (a 5 GB upload takes as long as it
 * takes; the core's idle limits still apply), and no Authorization header: the core sends none
 * to absolute URLs, and an object store refuses a request that carries one besides its signature.
 */
export async function uploadFile(http: HttpClient, url: string, file: UploadFile, options: UploadOptions): Promise<HttpResponse> {
  const chunks = file.chunks ?? (file.size === 0 ? undefined : await FileChunks.open(file.path, file.size));
  let attemptStarted = options.now();
  /** Bytes of this attempt handed to the request: a chunk is, once the request asks for the one after it. */
  let handedOver = 0;
  async function* attempt(): AsyncGenerator<Buffer> {
    if (chunks === undefined) return;
    chunks.rewind();
    for (let chunk = await chunks.next(); chunk !== undefined; chunk = await chunks.next()) {
      file.inspect?.(chunk, chunks.read - chunk.length);
      yield chunk;
      handedOver += chunk.length;
    }
  }
  const body: ReopenableBody = {
    open: () => {
      attemptStarted = options.now();
      handedOver = 0;
      return attempt();
    },
    length: file.size,
    contentType: options.contentType ?? 'application/json',
  };
  // Sampled: a report per chunk would cost more than drawing them. Bytes read ahead are not sent: a request stopped before its first write has sent none.
  const report = () => options.onProgress?.({ sent: handedOver, total: file.size, elapsedMs: options.now() - attemptStarted });
  const timer = options.onProgress === undefined ? undefined : setInterval(report, options.progressIntervalMs ?? 100);
  try {
    return await http.request({ method: 'PUT', url, body, timeoutMs: null });
  } finally {
    clearInterval(timer);
    report();
    if (file.chunks === undefined) await chunks?.close();
  }
}
