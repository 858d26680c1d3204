import { mayHaveBeenProcessed, type AttemptOutcome } from './http/retry.js';

/** What went wrong, as typed errors: the tree every failure is thrown as, and whether a failed request may have been applied. */

/** Exit codes: documented in README.md and `csafe --help`; errors and command outcomes are mapped to them in one place, main.ts (exitCodeOfError, exitCodeOfOutcome). */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  condition: 4,
  partial: 5,
  /** sysexits' EX_TEMPFAIL: another run holds the checkpoint; the same command later will do. */
  busy: 75,
  waitTimeout: 124,
  /** As a shell says a command it could not run (`emulator exec`): found but not runnable, not found. */
  notRunnable: 126,
  notFound: 127,
  interrupted: 130,
  /** 128 + SIGTERM, as a shell reports a process the signal ended. */
  terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class CsafeError extends Error {
  /** A line telling the user what to do next, printed after the message. */
  readonly hint?: string;

  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = new.target.name;
    this.hint = options?.hint;
  }
}

/** Bad flags or arguments. Nothing was sent. */
export class UsageError extends CsafeError {}

/** The command `emulator exec` was to run is not on PATH (or is no file). */
export class CommandNotFoundError extends CsafeError {}

/** The command `emulator exec` was to run is there but cannot be run (not executable). */
export class CommandNotRunnableError extends CsafeError {}

/** Bad input data, located as `file:line[:column]: field: expected …`. Nothing was sent. */
export class InputError extends CsafeError {}

/** The config file cannot be read as csafe profiles; flags and environment variables still work without it. */
export class CorruptConfigError extends UsageError {
  constructor(path: string, reason: string) {
    super(`config file ${path} ${reason}`, {
      hint: `repair it or remove it (\`csafe config list\` works again once it is valid); flags and CSAFE_* variables work without it`,
    });
  }
}

export class MissingCredentialsError extends CsafeError {}

export class ConnectionError extends CsafeError {
  constructor(
    message: string,
    /** Whether any of the request may have reached the service (false for a refused connection). */
    readonly sent: boolean,
    options?: { hint?: string },
  ) {
    super(message, options);
  }
}
export class RequestTimeoutError extends CsafeError {}

/**
 * --max-consecutive-failures requests in a row could not reach the service (see FailFast): a bulk
 * run stops sending and writes what it has not sent to its failed file instead of failing every
 * record slowly. The message is the one line the user sees.
 */
export class UnreachableError extends CsafeError {
  constructor(host: string, failures: number, lastError: string) {
    super(`the service at ${host} is unreachable: ${failures} request${failures === 1 ? '' : 's'} in a row could not connect (last: ${lastError})`);
  }
}

/** A 2xx answer that is not the JSON promised (an HTML page, a cut body) or lacks the fields the spec promises. */
export class UnexpectedResponseError extends CsafeError {}

/** An answer over the size limit: refused while reading, so it is never held whole. */
export class ResponseTooLargeError extends CsafeError {}

/** The service asked to wait longer than --max-wait allows. */
export class RetryAfterTooLongError extends CsafeError {
  constructor(
    readonly waitMs: number,
    readonly retryAt: Date,
    status: number,
  ) {
    const seconds = Math.ceil(waitMs / 1000);
    super(`service answered ${status} and asked to wait ${seconds} s (until ${retryAt.toISOString()})`, {
      hint: `retry after that time, or pass --max-wait ${seconds} to wait for it`,
    });
  }
}

/** A --wait ran out of time before the work reached a terminal state. */
export class WaitTimeoutError extends CsafeError {}

/** Another live run holds the lock of a file this run must own (a --checkpoint): nothing was done, and the same command later is right. */
export class LockedError extends CsafeError {}

export class InterruptedError extends CsafeError {
  constructor(message = 'interrupted') {
    super(message);
  }
}

/**
 * The reader of stdout went away (`| head`) while a bulk run still had records to send: it stopped
 * as on Ctrl-C, and its exit code says that records are left, as a run that could not send them
 * does: 5 when it delivered some, 1 when none.
 */
export class ReaderGoneError extends InterruptedError {
  constructor(readonly delivered: number) {
    super('the reader of stdout went away');
  }
}

/** SIGTERM (a service manager stopping csafe) ended a run that finishes its work on a signal (stream parts --follow). */
export class TerminatedError extends InterruptedError {
  constructor() {
    super('terminated (SIGTERM)');
  }
}

export interface ApiErrorDetails {
  status: number;
  method: string;
  path: string;
  serviceMessage: string;
  errorType?: string;
  field?: string;
  requestId?: string;
  body?: unknown;
}

/** A non-2xx answer from the service. Carries the request path, never the URL's query or any credential. */
export class ApiError extends CsafeError {
  readonly status: number;
  readonly details: ApiErrorDetails;

  constructor(details: ApiErrorDetails, options?: { hint?: string }) {
    const type = details.errorType ? ` ${details.errorType}` : '';
    super(`${details.method} ${details.path}: ${details.status}${type}: ${details.serviceMessage}`, options);
    this.status = details.status;
    this.details = details;
  }
}

export class BadRequestError extends ApiError {}
export class AuthenticationError extends ApiError {}
export class PermissionDeniedError extends ApiError {}
export class NotFoundError extends ApiError {}
export class RequestTooLargeError extends ApiError {}
export class RateLimitError extends ApiError {}
export class ServerError extends ApiError {}

/**
 * A 401 or 403 from an absolute address (a pre-signed upload or download URL): it was never sent
 * the API key, and the service issued it, so the key is not what was refused. A run again gets a
 * fresh address; a new key would change nothing.
 */
export class AddressRefusedError extends ApiError {
  /** `again`: the command that gets a fresh address, where running this one again would do more (send another batch). */
  constructor(details: ApiErrorDetails, again?: string) {
    const fresh = again === undefined ? 'run again for a fresh one' : `get a fresh one with: ${again}`;
    super(details, { hint: `the API key was accepted (the service issued this address); the address itself was refused: ${fresh}` });
  }
}

export function apiErrorFor(details: ApiErrorDetails, to: 'service' | 'address' = 'service'): ApiError {
  if (to === 'address' && (details.status === 401 || details.status === 403)) return new AddressRefusedError(details);
  switch (details.status) {
    case 400:
      return new BadRequestError(details);
    case 401:
      return new AuthenticationError(details, {
        hint: 'check the API key: `csafe auth status`, `csafe auth login`, or CSAFE_API_KEY',
      });
    case 403:
      return new PermissionDeniedError(details);
    case 404:
      return new NotFoundError(details);
    case 413:
      return new RequestTooLargeError(details);
    case 429:
      return new RateLimitError(details);
    default:
      return details.status >= 500 ? new ServerError(details) : new ApiError(details);
  }
}

/**
 * Failures no later request of the same run could escape (credentials refused, Ctrl-C, a long
 * Retry-After): a batch command stops on them instead of writing every record to its failed file.
 */
export function stopsTheRun(error: unknown): boolean {
  return [AuthenticationError, PermissionDeniedError, MissingCredentialsError, UsageError, InterruptedError, RetryAfterTooLongError].some(
    (type) => error instanceof type,
  );
}

/**
 * Whether the service may have applied a request that ended in this error, so that sending it
 * again could apply it twice: the retry policy's own rule (mayHaveBeenProcessed), read from the
 * error. An error of csafe's own (bad input, a defect) never reached the service.
 */
export function mayHaveBeenApplied(error: unknown): boolean {
  const outcome = attemptOutcomeOf(error);
  return outcome !== undefined && mayHaveBeenProcessed(outcome);
}

/** The attempt's outcome an error reports, as the retry policy sees it; undefined for an error no request made. */
function attemptOutcomeOf(error: unknown): AttemptOutcome | undefined {
  if (error instanceof ApiError) return { kind: 'response', status: error.status, headers: {} };
  if (error instanceof ConnectionError) return { kind: 'network-error', sent: error.sent };
  if (error instanceof RequestTimeoutError) return { kind: 'timeout' };
  // A 2xx whose body is not what the spec promises; and an answer cut off at the size limit, as a cut connection would.
  if (error instanceof UnexpectedResponseError) return { kind: 'unreadable' };
  if (error instanceof ResponseTooLargeError) return { kind: 'network-error', sent: true };
  return undefined;
}
