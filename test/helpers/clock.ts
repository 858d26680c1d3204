/** A clock that only moves when told to, or when something sleeps on it: a wait takes no real time. */
export class FixedClock {
  constructor(private time = Date.parse('2026-11-20T10:00:00Z')) {}

  readonly now = (): number => this.time;

  advance(ms: number): void {
    this.time += ms;
  }

  readonly sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    this.advance(ms);
    // Let other work (responses in flight, timers of 0) run, as a real sleep would.
    await new Promise((resolve) => setImmediate(resolve));
  };
}
