/**
 * The requests of a bulk run that were sent and are not answered yet: counted for the line an
 * interrupted run says (core/cli/resume.ts), and awaited before the run ends, so that what it
 * then reports as accepted is all that was.
 */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();
  private sent = 0;

  /** The requests sent and not answered: one still waiting its turn (--max-rate) is not sent yet. */
  get count(): number {
    return this.sent;
  }

  /** Starts `request`, awaited until it settles, and counted from when it calls `sending`. */
  run<T>(request: (sending: () => void) => Promise<T>): Promise<T> {
    let counted = false;
    const promise = request(() => {
      if (!counted) this.sent++;
      counted = true;
    });
    this.pending.add(promise);
    const done = () => {
      this.pending.delete(promise);
      if (counted) this.sent--;
    };
    promise.then(done, done);
    return promise;
  }

  /** Once every request started now has its answer, or its error. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.pending);
  }
}
