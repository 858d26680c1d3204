import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Records that could not be sent, appended one JSON line each so they can be resent. The file
 * is created on the first failure only: a clean run leaves nothing behind.
 */
export class FailedFile {
  private stream?: WriteStream;
  count = 0;

  constructor(readonly path: string) {}

  async append(record: unknown): Promise<void> {
    this.stream ??= createWriteStream(this.path, { flags: 'a', mode: 0o600 });
    this.count++;
    if (!this.stream.write(JSON.stringify(record) + '\n')) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    if (!this.stream) return;
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

/** Where failures go when the user named no file: beside the working directory, stamped with the time. */
export function defaultFailedPath(command: string, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `csafe-${command}-failed-${stamp}.jsonl`;
}
