import type { Repeat } from '../../src/core/terminal/spinner.js';

/** A timer `repeat` started: due at `due`, then every `every` ms. */
interface RepeatingTimer {
  every: number;
  due: number;
  tick: () => void;
}

/**
 * A clock that only moves when told to, or when something sleeps on it: a wait takes no real time.
 * Its `repeat` (the spinner's plain progress lines take one) ticks as the clock moves past each due time.
 */
export class FixedClock {
  private readonly timers = new Set<RepeatingTimer>();

  constructor(private time = Date.parse('2026-11-20T10:00:00Z')) {}

  readonly now = (): number => this.time;

  readonly repeat: Repeat = (every, tick) => {
    const timer = { every, due: this.time + every, tick };
    this.timers.add(timer);
    return () => void this.timers.delete(timer);
  };

  /** Moves the clock on by `ms`, running each repeating timer due meanwhile, in the order they fall due. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (let next = this.nextDue(until); next !== undefined; next = this.nextDue(until)) {
      this.time = next.due;
      next.due += next.every;
      next.tick();
    }
    this.time = until;
  }

  readonly sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    this.advance(ms);
    // Let other work (responses in flight, timers of 0) run, as a real sleep would.
    await new Promise((resolve) => setImmediate(resolve));
  };

  private nextDue(until: number): RepeatingTimer | undefined {
    let next: RepeatingTimer | undefined;
    for (const timer of this.timers) if (timer.due <= until && (next === undefined || timer.due < next.due)) next = timer;
    return next;
  }
}
