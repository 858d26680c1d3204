import { classifyContent, requestProblems, type ClassifyResponse } from '../../api/content.js';
import type { Context } from '../../context.js';
import { InputError, UsageError } from '../../core/errors.js';
import { parseMetadata } from '../../core/input/json-flags.js';
import { printResult } from '../../core/terminal/output.js';
import { startSpinner } from '../../core/terminal/spinner.js';
import { CONTENT_LIMITS, type ContentRequest } from '../../schemas/content.js';
import type { Outcome } from '../app.js';
import { failOnHolds, labelRows } from './labels.js';
import { missingUserId, type ClassifyOptions } from './options.js';
import { describeForFiles, partsFromFiles, partsFromTexts } from './parts.js';
import { labelsView } from './render.js';

// `csafe classify FILE…`: classifies each named file (text or image) with one request and prints its
// labels.

export async function classifyFiles(ctx: Context, named: readonly string[], options: ClassifyOptions, userId: string | undefined): Promise<Outcome> {
  // Nothing named but something piped in: stdin is the content, as for every command that reads a file.
  const stdinIsMetadata = options.metadata.includes('@-');
  const files = named.length === 0 && options.text.length === 0 && !ctx.io.stdinIsTTY && !stdinIsMetadata ? ['-'] : named;
  if (files.length === 0 && options.text.length === 0) {
    throw new UsageError('nothing to classify: give files, `-` for stdin, --text or --batch');
  }
  if (userId === undefined) throw missingUserId();
  const parts = [...(await partsFromFiles(files, ctx.io.stdin, ctx.signal)), ...partsFromTexts(options.text)];
  const request: ContentRequest = {
    content: parts.map((p) => p.part),
    user_id: userId,
    ...(options.contentId !== undefined && { content_id: options.contentId }),
    ...(await parseMetadata(options.metadata, { stdin: ctx.io.stdin, maxBytes: CONTENT_LIMITS.requestBytes, signal: ctx.signal }).then((metadata) => metadata && { metadata })),
  };
  const problems = requestProblems(request, options.apiVersion);
  if (problems.length > 0) throw new InputError(problems.map((p) => describeForFiles(p, parts)).join('\n'));

  const format = await ctx.outputFormat('single');
  // One request, one verdict for all of them: say so, or a label would read as one file's.
  const eachWould = files.filter((file) => file !== '-').length > 1 ? '; --each classifies each file on its own' : '';
  if (parts.length > 1) ctx.io.note(`classified together, as one piece of content: ${parts.map((p) => p.origin).join(', ')}${eachWould}`);
  const http = await ctx.http();
  const spinner = await startSpinner(ctx.io, 'Classifying…');
  let response: ClassifyResponse;
  try {
    response = await classifyContent(http, request, options.apiVersion);
  } finally {
    spinner.stop();
  }
  const rows = labelRows(response);
  await printResult(ctx.io, format, response, labelsView(rows));
  return { kind: 'classified', failOnHeld: failOnHolds(rows, options.failOn) };
}
