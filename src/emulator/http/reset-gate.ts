/**
 * Requests are processed side by side, but POST /_emulator/reset alone. A reset empties the stores
 * on disk: a request writing into one meanwhile failed with a 500 (its folder gone as it wrote),
 * and one listing a store read a folder being removed. So a reset waits for the requests being
 * processed, and requests that come meanwhile wait for it. Only the processing is gated: a
 * request held afterwards (the held_requests quirk, --latency) does not hold a reset back, nor
 * does an upload to the object store (the server leaves those out).
 */
export class ResetGate {
  private processing = 0;
  /** Settles when the reset under way ends. */
  private resetting: Promise<void> | undefined;
  private drained: (() => void) | undefined;

  async process<T>(work: () => Promise<T>): Promise<T> {
    while (this.resetting !== undefined) await this.resetting;
    this.processing++;
    try {
      return await work();
    } finally {
      if (--this.processing === 0) this.drained?.();
    }
  }

  /** `work` once no request is being processed, none starting until it ends; resets at once run one after the other. */
  async alone<T>(work: () => Promise<T>): Promise<T> {
    while (this.resetting !== undefined) await this.resetting;
    let ended!: () => void;
    this.resetting = new Promise((resolve) => (ended = resolve));
    try {
      if (this.processing > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = undefined;
      return await work();
    } finally {
      this.resetting = undefined;
      ended();
    }
  }
}
