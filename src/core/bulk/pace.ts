/**
 * --max-rate: the requests of one run start no faster than `perSecond`, evenly spaced, so that n
 * workers of --shard, each given the quota ÷ n, share one API quota without meeting 429s. A
 * request waits its turn before it is sent; the retries of a request follow the retry policy's
 * own waits (Retry-After, backoff). Without a rate nothing waits.
 */
export class Pace {
  /** When (clock.now()) the next request may start. */
  private next = 0;

  constructor(
    private readonly perSecond: number | undefined,
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> },
  ) {}

  /** Resolves at this request's turn; a wait cut short by Ctrl-C rejects as the clock's sleep does. */
  async turn(): Promise<void> {
    if (this.perSecond === undefined) return;
    const now = this.clock.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.perSecond;
    if (at > now) await this.clock.sleep(at - now);
  }
}
