import type { Pace } from './pace.js';
import { inputCutShortNote } from '../cli/resume.js';
import { ApiError, AuthenticationError, ConnectionError, PermissionDeniedError, RetryAfterTooLongError, UnreachableError } from '../errors.js';

/**
 * How a bulk run stops early, the same for every bulk command. The requests of one run go through
 * `send`. A failure no later request could escape halts the run: the service refused the
 * credentials (401/403), asked to wait longer than --max-wait, or could not be reached for
 * --max-consecutive-failures requests in a row (a ConnectionError — refused, DNS, TLS, a cut
 * connection — after the HTTP core's own retries; any answer from the service, even an error
 * status, resets the count; a limit of 0 never stops). From then on every later request fails
 * with that one error without being sent, so the command writes every record not acknowledged
 * to its failed file, and says why once, at the end (haltLine). With a Pace (--max-rate), each
 * request waits its turn first.
 */
export class FailFast {
  private inARow = 0;
  /** Set once the run has halted. */
  stoppedBy?: Error;

  constructor(
    private readonly limit: number,
    private readonly baseUrl: string,
    private readonly pace?: Pace,
  ) {}

  async send<T>(request: () => Promise<T>): Promise<T> {
    if (this.stoppedBy !== undefined) throw this.stoppedBy;
    await this.pace?.turn();
    // The run may have halted while this request waited its turn.
    if (this.stoppedBy !== undefined) throw this.stoppedBy;
    try {
      const answer = await request();
      this.inARow = 0;
      return answer;
    } catch (error) {
      throw this.failed(error);
    }
  }

  /** Whether a record failed because the run halted: it is in the failed file, and the halt is said once for all of them. */
  isStop(error: unknown): boolean {
    return this.stoppedBy !== undefined && error === this.stoppedBy;
  }

  private failed(error: unknown): unknown {
    if (haltsTheRun(error)) return (this.stoppedBy ??= error as Error);
    if (error instanceof ApiError) this.inARow = 0;
    if (!(error instanceof ConnectionError) || this.limit === 0) return error;
    if (this.stoppedBy === undefined && ++this.inARow < this.limit) return error;
    this.stoppedBy ??= new UnreachableError(new URL(this.baseUrl).host, this.inARow, error.message);
    // A request that may have reached the service keeps its own error: whether it was applied is that error's to say (the unconfirmed file, not the failed one).
    return error.sent ? error : this.stoppedBy;
  }
}

/** An answer that every later request of the run would get too. */
const haltsTheRun = (error: unknown) => error instanceof AuthenticationError || error instanceof PermissionDeniedError || error instanceof RetryAfterTooLongError;

/**
 * The one line that says why the run halted and where what it did not send is; `readStoppedAfter`:
 * the records (of `noun`) read when the halt also stopped the reading of a pipe, after which what followed is in no file.
 */
export function haltLine(stop: Error, failedPath: string, readStoppedAfter?: number, noun = 'record'): string {
  const why = stop instanceof AuthenticationError || stop instanceof PermissionDeniedError ? `the service refused the credentials (${stop.status})` : stop.message;
  const cutShort = readStoppedAfter === undefined ? '' : inputCutShortNote(readStoppedAfter, noun);
  return `stopped: ${why}; what was not sent is in ${failedPath}${cutShort}`;
}
