import { createDecision } from '../../api/decisions.js';
import type { Context } from '../../context.js';
import { InputError, UsageError } from '../../core/errors.js';
import { jsonObjectFlag, parseMetadata, type JsonFlagInput } from '../../core/input/json-flags.js';
import { printResult, recordView } from '../../core/terminal/output.js';
import { waitOptions, type WaitOptions } from '../../core/cli/wait.js';
import { CONTENT_LIMITS } from '../../schemas/content.js';
import { createDecisionRequestSchema, type CreateDecisionRequest } from '../../schemas/decisions.js';
import type { Outcome } from '../app.js';
import { followDecision } from './show.js';
import type { Action } from '../app.js';
import { flagOfField } from '../../core/cli/flags.js';
import { parseFlags } from '../../core/cli/options.js';
import type { decisionCreate } from './create-command.js';

// `csafe decision create`: asks for a decision on one piece of content, checking the request before it
// is sent.

export interface DecisionCreateOptions extends WaitOptions {
  type?: string;
  content?: string;
  metadata: string[];
}

export async function decisionCreateRun(ctx: Context, options: DecisionCreateOptions): Promise<Outcome | void> {
  const request = await decisionRequest(options, { stdin: ctx.io.stdin, maxBytes: CONTENT_LIMITS.requestBytes, signal: ctx.signal });
  const format = await ctx.outputFormat('single');
  const created = await createDecision(await ctx.http(), request);
  if (options.wait) return followDecision(ctx, format, created.decision_id, options.timeoutMs, { type: created.type });
  const { decision_id, type, metadata, ...rest } = created;
  await printResult(ctx.io, format, created, recordView({ decision_id, type, metadata: metadata ?? {}, ...rest }));
}

/** The option that fills each field of the request. */
const OPTION_OF_FIELD: Record<string, keyof typeof decisionCreate.flags> = { type: 'type', content: 'content', metadata: 'metadata' };

/** The request, checked with the schema the emulator uses before anything is sent; a problem names its flag. */
async function decisionRequest(options: DecisionCreateOptions, input: JsonFlagInput): Promise<CreateDecisionRequest> {
  const content = options.content === undefined ? undefined : await jsonObjectFlag('--content', options.content, input, 'a JSON object (its fields depend on --type)');
  const metadata = await parseMetadata(options.metadata, input);
  const parsed = createDecisionRequestSchema.safeParse({ type: options.type, content, ...(metadata !== undefined && { metadata }) });
  if (parsed.success) return withinRequestSize(parsed.data);
  const issue = parsed.error.issues[0]!;
  // Within a flag's JSON, the key too: `--metadata: tags: expected a string…`.
  const within = issue.path.slice(1).map(String).join('.');
  throw new UsageError(`${flagOfField(OPTION_OF_FIELD, issue.path[0]!) ?? 'decision'}: ${within ? `${within}: ` : ''}${issue.message}`);
}

/**
 * The request, if its JSON fits in one request: --content and --metadata are each read up to the
 * limit, so together they can pass it, and the service would refuse the body.
 */
function withinRequestSize(request: CreateDecisionRequest): CreateDecisionRequest {
  const size = Buffer.byteLength(JSON.stringify(request));
  if (size <= CONTENT_LIMITS.requestBytes) return request;
  throw new InputError(`--content and --metadata: the request would be ${size} bytes, over ${CONTENT_LIMITS.requestBytes} bytes, the most one request can carry`);
}

/** The action of the command declared in create-command.ts, loaded when it runs. */
export const decisionCreateAction: Action<typeof decisionCreate.flags> = async (ctx, command, flags) => {
      const options = parseFlags(flags, command.opts());
      return decisionCreateRun(ctx, { ...options, ...waitOptions(options) });
    };
