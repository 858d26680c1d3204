import { ApiError, ConnectionError, UnreachableError } from '../errors.js';

/**
 * --max-consecutive-failures for a bulk command: the requests of one run go through `send`, which
 * counts the ones in a row that could not reach the service (a ConnectionError — refused, DNS,
 * TLS, a cut connection — after the HTTP core's own retries). Any answer from the service, even
 * an error status, resets the count. At the limit the run stops: that request and every later
 * one fails with the one UnreachableError, without being sent, so the command writes them to its
 * failed file and says why once. A limit of 0 never stops.
 */
export class FailFast {
  private inARow = 0;
  /** Set once the run has stopped. */
  stoppedBy?: UnreachableError;

  constructor(
    private readonly limit: number,
    private readonly baseUrl: string,
  ) {}

  async send<T>(request: () => Promise<T>): Promise<T> {
    if (this.stoppedBy !== undefined) throw this.stoppedBy;
    try {
      const answer = await request();
      this.inARow = 0;
      return answer;
    } catch (error) {
      throw this.failed(error);
    }
  }

  /** Whether a record failed because the run stopped: it is in the failed file, and the stop is said once for all of them. */
  isStop(error: unknown): boolean {
    return this.stoppedBy !== undefined && error === this.stoppedBy;
  }

  private failed(error: unknown): unknown {
    if (error instanceof ApiError) this.inARow = 0;
    if (!(error instanceof ConnectionError) || this.limit === 0) return error;
    if (this.stoppedBy === undefined && ++this.inARow < this.limit) return error;
    this.stoppedBy ??= new UnreachableError(new URL(this.baseUrl).host, this.inARow, error.message);
    return this.stoppedBy;
  }
}

/** The one line that says the run stopped and where what it did not send is. */
export const unreachableLine = (stop: UnreachableError, failedPath: string) => `stopped: ${stop.message}; what was not sent is in ${failedPath}`;
