import { classifyContent, requestProblems, type ClassifyResponse } from '../../api/content.js';
import type { Context } from '../../context.js';
import { sendEachLine, type CheckedRequest } from '../../core/bulk/line-requests.js';
import { shellWord } from '../../core/cli/command-line.js';
import { countOf } from '../../core/terminal/words.js';
import type { ContentRequest } from '../../schemas/content.js';
import { describeProblemWith } from '../../schemas/issues.js';
import { lineRunOutcome, type Outcome } from '../app.js';
import { failOnHolds, labelRows } from './labels.js';
import type { ClassifyOptions } from './options.js';
import { lineResultsView } from './render.js';

// `csafe classify --batch`: classifies each line of a file as a request of its own, several in flight,
// printing results in input order.

/** Where a line's missing required field can come from. */
const describeLineProblem = describeProblemWith({
  user_id: 'give --user-id or a "user_id" field on the line',
  content: 'give a "text" or "content" field on the line',
});

/**
 * Each line is a current-version request body, or the shorthand {text, user_id, content_id, metadata},
 * checked and sent by the pipeline of one request per line (core/bulk/line-requests.ts).
 */
export async function classifyBatch(ctx: Context, path: string, options: ClassifyOptions, defaultUserId: string | undefined): Promise<Outcome> {
  let flagged = 0;
  const run = await sendEachLine(ctx, path, options, {
    command: 'classify',
    checkpointWhat: 'a csafe classify --batch checkpoint',
    check(value): CheckedRequest<ContentRequest> {
      const shorthand = shorthandTextProblem(value);
      if (shorthand !== undefined) return { problem: shorthand };
      const request = toRequest(value, defaultUserId);
      const problems = requestProblems(request, options.apiVersion);
      return problems.length > 0 ? { problem: problems.map(describeLineProblem).join('; ') } : { request };
    },
    send: (http, request) => classifyContent(http, request, options.apiVersion, true),
    // Classifying stores nothing: a line whose answer was lost is classified again.
    replaySafe: true,
    printed: (line, _request, result: ClassifyResponse) => ({ line, result }),
    view: lineResultsView,
    answered: (result) => void (failOnHolds(labelRows(result), options.failOn) && flagged++),
    spinner: { start: 'Classifying…', progress: (counts) => `Classified ${counts.sent}, failed ${counts.failed}` },
    summary: (counts) => `classified ${countOf(counts.sent, 'line')}`,
    // The failed lines are as read: a user id from --user-id is not on them.
    resendCommand: (input) => `classify --batch ${shellWord(input)}${options.userId === undefined ? '' : ` --user-id ${shellWord(options.userId)}`}`,
  });
  return lineRunOutcome(run, { flagged });
}

/**
 * A shorthand line whose text cannot be read as one: said of its text field. Left to the request's
 * schema, it would read as a line without text or content that has an unknown field called text.
 */
function shorthandTextProblem(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { text, content } = value as Record<string, unknown>;
  if (text === undefined) return undefined;
  if (content !== undefined) return 'text: give a "text" or a "content" field on the line, not both';
  return typeof text === 'string' ? undefined : `text: expected a string (the text to classify), got ${text === null ? 'null' : Array.isArray(text) ? 'an array' : typeof text}`;
}

/** Expands the shorthand and fills user_id from --user-id or config; validation happens after. */
function toRequest(value: unknown, defaultUserId: string | undefined): ContentRequest {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value as ContentRequest;
  const record = value as Record<string, unknown>;
  const withUser = record.user_id === undefined && defaultUserId !== undefined ? { ...record, user_id: defaultUserId } : record;
  if (withUser.content !== undefined || typeof withUser.text !== 'string') return withUser as ContentRequest;
  const { text, ...rest } = withUser;
  return { ...rest, content: [{ type: 'text', text }] } as ContentRequest;
}
