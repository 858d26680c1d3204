/**
 * `--dry-run`, the one grammar of every command that sends: the command runs as it would, every
 * check included, up to its first request; the HTTP core records that request, exactly as it
 * would have gone (credentials redacted), in place of sending it, and ends the run with
 * DryRunEnded. main.ts prints the plan (core/terminal/plan.ts) and exits 0. Nothing reaches the service.
 */

/** A request as it would have been sent. */
export interface PlannedRequest {
  method: string;
  /** Its URL; null when the service's answer would give it (a pre-signed upload address). */
  url: string | null;
  /** Where the URL would come from, when `url` is null. */
  url_from?: string;
  headers: Record<string, string>;
  /** The JSON body, parsed. */
  body?: unknown;
  /** A file sent as it is (an upload): its name and size. */
  body_file?: string;
  body_bytes?: number;
}

/** What a run of many requests would send in all: told before its first request. */
export interface PlannedTotal {
  requests: number;
  /** The records those requests carry, and what one is in the command's words: `object`, `event`, `file`. */
  records?: { count: number; noun: string };
}

export class DryRunPlan {
  /**
   * The requests shown: those whose answer the run does not use (recorded as it went on), the one
   * that ended it, and an upload bound to follow that one (the PUT to the address it asks for).
   */
  readonly requests: PlannedRequest[] = [];
  total?: PlannedTotal;

  /** How many requests the run would send in all. */
  get requestCount(): number {
    return this.total?.requests ?? this.requests.length;
  }

  /** Records a request whose answer the run goes on without. */
  record(request: PlannedRequest): void {
    this.requests.push(request);
  }

  /** Records the request and ends the run: the HTTP core's answer to every other request in a dry run. */
  stop(request: PlannedRequest): DryRunEnded {
    this.requests.push(request);
    return new DryRunEnded(this);
  }

  /** Ends a run that would send nothing at all (an empty input). */
  stopEmpty(): DryRunEnded {
    return new DryRunEnded(this);
  }

  /** The plan as printed with --json (and in a pipe). */
  toJSON(): Record<string, unknown> {
    const records = this.total?.records;
    return {
      dry_run: true,
      request_count: this.requestCount,
      ...(records && { record_count: records.count, records: plural(records.noun) }),
      requests: this.requests,
    };
  }
}

/**
 * How a dry run ends: thrown by the HTTP core in place of sending. Not a CsafeError, so no
 * handler of failures (a retry, the failed file, "may have been applied") mistakes it for one.
 */
export class DryRunEnded extends Error {
  constructor(readonly plan: DryRunPlan) {
    super('dry run: nothing was sent');
  }
}

const plural = (noun: string) => `${noun}s`;
