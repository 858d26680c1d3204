/**
 * Background work of a store, once per key at a time; stop() aborts all of it and waits for it (a
 * reset, a close), cancel() one piece. A failure is dropped: the work records its outcome only when
 * it succeeds, and the next read of a record without one starts the work again.
 */
export class BackgroundWork {
  private readonly running = new Map<string, { done: Promise<void>; controller: AbortController }>();

  run(key: string, work: (signal: AbortSignal) => Promise<void>): void {
    if (this.running.has(key)) return;
    const controller = new AbortController();
    const done = work(controller.signal)
      .catch(() => undefined)
      .finally(() => this.running.delete(key));
    this.running.set(key, { done, controller });
  }

  isRunning = (key: string) => this.running.has(key);

  async cancel(key: string): Promise<void> {
    const current = this.running.get(key);
    current?.controller.abort();
    await current?.done;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.running.keys()].map((key) => this.cancel(key)));
  }
}
