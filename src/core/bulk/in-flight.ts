/**
 * The requests of a bulk run that were sent and are not answered yet: counted for the line an
 * interrupted run says (core/cli/resume.ts), and awaited before the run ends, so that what it
 * then reports as accepted is all that was.
 */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();

  get count(): number {
    return this.pending.size;
  }

  /** Starts `request` and counts it until it settles. */
  run<T>(request: () => Promise<T>): Promise<T> {
    const promise = request();
    this.pending.add(promise);
    const done = () => this.pending.delete(promise);
    promise.then(done, done);
    return promise;
  }

  /** Once every request in flight now has its answer, or its error. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.pending);
  }
}
