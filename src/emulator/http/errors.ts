import { ERROR_TYPES } from '../../schemas/errors.js';
import { describeProblem, formatPath, type FieldProblem } from '../../schemas/issues.js';

/** How the emulator refuses a request: one error class, one error body shape for every endpoint. */

export type ErrorStatus = keyof typeof ERROR_TYPES;

/** A failure a handler reports to the caller; the server turns it into the JSON error body. */
export class EmulatorError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'EmulatorError';
  }
}

/** 400 for one or more field problems: every problem is in the message, the first one names the field. */
export function invalidRequest(problems: readonly FieldProblem[]): EmulatorError {
  const [first] = problems;
  if (first === undefined) throw new Error('invalidRequest() needs at least one problem');
  return new EmulatorError(400, problems.map(describeProblem).join('; '), formatPath(first.path));
}

/** `{"error":{"type","message","field"?}}`: the one error body shape every endpoint answers with. */
export function errorBody(error: EmulatorError) {
  return {
    error: {
      type: ERROR_TYPES[error.status],
      message: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
    },
  };
}
