import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { reportInvalid, validRecords } from '../../../core/checked-records.js';
import { InterruptedError, stopsTheRun } from '../../../core/errors.js';
import { defaultFailedPath, FailedFile } from '../../../core/failed-file.js';
import { parseOptions } from '../../../core/options.js';
import { countOf, printResult, renderRecord } from '../../../core/output.js';
import { startSpinner } from '../../../core/spinner.js';
import { batchOutcome, positional, type App, type Outcome } from '../../app.js';
import { parseNamespace } from '../../namespace.js';
import { deliverParts, emptyPartsTally, type PartsTally } from './deliver.js';
import { partsInput, type PartsInput } from './input.js';
import { partsBatchFlags, partsOptionsSchema, type PartsOptions } from './options.js';

export function registerStreamParts(group: Command, app: App): void {
  group
    .command('parts')
    .description('Append parts to a stream (POST /v1/streams/{namespace}/parts): from a file or stdin, from caption cues, or one part by flags')
    .argument('<namespace>', 'the namespace')
    .argument('[file]', 'JSON Lines, a JSON array, or one JSON object, each a stream part; `-` reads stdin')
    .option('--id <id>', 'your identifier of the stream (as given to `stream watch`; it need not be watched first)')
    .option('--chat <text>', 'one chat message, with --sender-id and --sender-name')
    .option('--sender-id <id>', 'with --chat: your stable identifier of the sender')
    .option('--sender-name <name>', 'with --chat: the name shown in the chat')
    .option('--transcript <text>', 'one transcript line: what was said')
    .option('--speaker <name>', 'with --transcript: who said it')
    .option('--frame <url>', 'one frame image, by its http(s) URL')
    .option('--audio <url>', 'one audio segment, by its http(s) URL')
    .option('--timestamp <date-time>', 'with a part by flags: when it happened, ISO 8601 with a time zone (default: now)')
    .option('--captions <file>', 'WebVTT or SubRip captions: each cue becomes a transcript part')
    .option('--start <date-time>', 'with --captions: the date-time the captions\' 00:00 stands for')
    .addOption(partsBatchFlags.batchSize.option)
    .addOption(partsBatchFlags.maxBatchBytes.option)
    .addOption(partsBatchFlags.failed.option)
    .addOption(partsBatchFlags.skipInvalid.option)
    .addHelpText('after', `
Each part is a JSON object of one of four types (timestamps ISO 8601, with a time zone):
  chat_message     sender_id, sender_display_name, text, timestamp
  transcript       text, timestamp, speaker (optional)
  frame_image_url  url, timestamp
  audio_url        url, timestamp
Every part of a file is checked before the first request; an invalid one is named as
file:line: field. With --captions, each WebVTT or SubRip cue (told apart by content) becomes
a transcript part stamped --start plus the cue's start, its speaker from a <v Name> voice tag.
Parts are sent in file order. Prints a summary (parts sent, requests, failed):
a table on a terminal, JSON in a pipe or with --json. Exit codes: 0 all sent, 2 invalid input
(nothing sent), 3 key refused, 5 some parts failed (written to the failed file: resend it as
the FILE), 130 interrupted.

Examples:
  csafe stream parts live --id show-42 parts.jsonl
  csafe stream parts live --id show-42 --chat "hello" --sender-id u7 --sender-name Ann
  csafe stream parts live --id show-42 --transcript "welcome back" --speaker host
  csafe stream parts live --id show-42 --frame https://cdn.example.com/f/0001.jpg --timestamp 2026-11-21T10:00:00Z
  csafe stream parts live --id show-42 --audio https://cdn.example.com/a/0001.aac
  csafe stream parts live --id show-42 --captions talk.vtt --start 2026-11-21T10:00:00Z
  cat parts.jsonl | csafe stream parts live --id show-42 - --skip-invalid invalid.jsonl`)
    .action(app.action(async (ctx, command) => {
      const options = parseOptions(partsOptionsSchema, command.opts());
      const [namespace, file] = positional(command) as [string, string | undefined];
      return streamPartsRun(ctx, parseNamespace(namespace), file, options);
    }));
}

export async function streamPartsRun(ctx: Context, namespace: string, file: string | undefined, options: PartsOptions): Promise<Outcome> {
  const input = await partsInput(ctx, file, options);
  try {
    if (options.skipInvalid === undefined) {
      const invalid = await reportInvalid(input.records(), input.name, ctx.io);
      if (invalid > 0) {
        ctx.io.warn(`nothing was sent: fix the ${countOf(invalid, 'invalid part')}, or pass --skip-invalid FILE to send the rest`);
        return { kind: 'checked', invalid };
      }
    }
    const { tally, failed, invalid } = await sendParts(ctx, namespace, input, options);
    await printSummary(ctx, { namespace, id: options.id, tally, failed, invalid });
    return batchOutcome('stream parts', { sent: tally.sent, failed: tally.failed });
  } finally {
    await input.remove();
  }
}

async function sendParts(ctx: Context, namespace: string, input: PartsInput, options: PartsOptions) {
  const failed = new FailedFile(options.failed ?? defaultFailedPath('stream-parts', ctx.now()));
  const invalid = options.skipInvalid === undefined ? undefined : new FailedFile(options.skipInvalid);
  const tally = emptyPartsTally();
  const progress = await startSpinner(ctx.io, 'Sending parts…');
  try {
    await deliverParts(validRecords(input.records(), input.name, ctx.io, invalid), {
      http: await ctx.http(),
      io: ctx.io,
      namespace,
      id: options.id,
      inputName: input.name,
      options,
      failed,
      tally,
      onProgress: () => progress.update(`Sending parts: ${tally.sent} sent, ${tally.failed} failed`),
      signal: ctx.signal,
    });
  } catch (error) {
    if (error instanceof InterruptedError || stopsTheRun(error)) {
      const how = error instanceof InterruptedError ? 'interrupted' : 'stopped';
      ctx.io.warn(`${how} after ${countOf(tally.sent, 'part')} ${tally.sent === 1 ? 'was' : 'were'} sent in ${countOf(tally.requests, 'request')}: later parts were not sent`);
    }
    throw error;
  } finally {
    progress.stop();
    await failed.close();
    await invalid?.close();
  }
  return { tally, failed, invalid };
}

interface RunResult {
  namespace: string;
  id: string;
  tally: PartsTally;
  failed: FailedFile;
  invalid?: FailedFile;
}

async function printSummary(ctx: Context, { namespace, id, tally, failed, invalid }: RunResult): Promise<void> {
  const summary = {
    namespace,
    id,
    sent: tally.sent,
    requests: tally.requests,
    failed: tally.failed,
    invalid: invalid?.count ?? 0,
    last_request_id: tally.lastRequestId,
    failed_file: failed.count > 0 ? failed.path : null,
    invalid_file: invalid && invalid.count > 0 ? invalid.path : null,
  };
  if (failed.count > 0) ctx.io.warn(`${countOf(failed.count, 'part')} of failed batches written to ${failed.path}: resend them with \`csafe stream parts ${namespace} --id ${id} ${failed.path}\``);
  if (summary.invalid_file) ctx.io.note(`${countOf(summary.invalid, 'invalid record')} written to ${summary.invalid_file}`);
  await printResult(ctx.io, await ctx.outputFormat(), summary, () => renderRecord(summary, ctx.io));
}
