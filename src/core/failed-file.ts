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
    await this.appendLine(JSON.stringify(record));
  }

  /** A line written as given: text already serialised, or an input line that is not JSON, kept byte for byte. */
  async appendLine(text: string): Promise<void> {
    this.stream ??= createWriteStream(this.path, { flags: 'a', mode: 0o600 });
    this.count++;
    if (!this.stream.write(text + '\n')) await once(this.stream, 'drain');
  }

  /** Resolves once every record appended so far has reached the operating system (survives kill -9). */
  flush(): Promise<void> {
    const stream = this.stream;
    if (!stream) return Promise.resolve();
    return new Promise((resolve, reject) => stream.write('', (error) => (error ? reject(error) : resolve())));
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
