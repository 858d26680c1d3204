import type { Readable } from 'node:stream';
import { getRequest } from '../../api/data.js';
import type { Context } from '../../context.js';
import { shellWord } from '../../core/cli/command-line.js';
import { destinationOf, downloadFormat, writeDownloadedBytes, writeDownloadedJson } from '../../core/download/destination.js';
import { downloadBeforeExpiry, type DownloadAddress } from '../../core/download/expiring-download.js';
import { CsafeError, UnexpectedResponseError } from '../../core/errors.js';
import { readJsonRecords } from '../../core/input/json-records.js';
import { MAX_LINE_BYTES, RecordReadError } from '../../core/input/lines.js';
import { jsonValuesChunks } from '../../core/terminal/output.js';
import { isImportRecord, type RequestRecord } from '../../schemas/data.js';
import { positional, type Action } from '../app.js';
import { parseNamespace } from '../namespace.js';
import type { dataDownload } from './download-command.js';

// `csafe data download`: fetches a succeeded import's processed output (data_url) to a file or
// stdout, renewing an expired download address, as `batch download` does for a batch's result.

const OUTPUT = 'the output of the import';

export async function dataDownloadRun(ctx: Context, namespace: string, requestId: string, path: string | undefined, rows: 'json' | 'ndjson' | undefined): Promise<void> {
  const http = await ctx.http();
  const status = `csafe data status ${shellWord(namespace)} ${shellWord(requestId)}`;
  const lookUp = async () => addressOf(await getRequest(http, namespace, requestId), status);
  const download = { id: requestId, holder: 'request', again: `csafe data download ${shellWord(namespace)} ${shellWord(requestId)}`, address: await lookUp(), lookUp };
  await downloadBeforeExpiry({ http, io: ctx.io, now: () => ctx.now() }, download, async (body) => {
    const destination = await destinationOf(ctx.io, path);
    if (rows) return writeDownloadedJson(ctx.io, destination, jsonValuesChunks(outputObjects(body, requestId), rows), OUTPUT);
    return writeDownloadedBytes(ctx.io, destination, body, OUTPUT);
  });
}

/** The record's download address: only a succeeded import has one; each other case says where to look instead. */
function addressOf(record: RequestRecord, status: string): DownloadAddress {
  if (!isImportRecord(record)) {
    throw new CsafeError(`request ${record.request_id} is an add request: its objects and labels are in its record, not in a file`, { hint: `print them with: ${status}` });
  }
  const url = record.data_url;
  if (url === null || url === undefined || url === '') {
    const hint = record.status === 'failed' ? `see why with: ${status}` : `an import has its output once it has succeeded: ${status} --wait`;
    throw new CsafeError(`request ${record.request_id} has no output to download (status ${record.status})`, { hint });
  }
  // An expiry we cannot read is left to the store: its 403 says when the address has expired.
  const expiresAt = Date.parse(record.data_expires_at ?? '');
  return { url, expiresAt: Number.isNaN(expiresAt) ? Infinity : expiresAt };
}

/**
 * An output line is its input line and what the service added (labels, a url): it may pass the
 * limit of an input line, so the limit here is twice that.
 */
const MAX_OUTPUT_LINE_BYTES = 2 * MAX_LINE_BYTES;

/** The output's objects, read as any JSON records are (JSON Lines, or an array): a record that cannot be read is the service's fault. */
async function* outputObjects(body: Readable, requestId: string): AsyncGenerator<unknown> {
  try {
    for await (const record of readJsonRecords(body, { allowEmpty: true, maxLineBytes: MAX_OUTPUT_LINE_BYTES })) {
      if ('error' in record) throw new UnexpectedResponseError(`the output of ${requestId}, line ${record.line}: ${record.error}`);
      yield record.value;
    }
  } catch (error) {
    if (!(error instanceof RecordReadError)) throw error;
    throw new UnexpectedResponseError(`the output of ${requestId}${error.line === undefined ? '' : `, line ${error.line}`}: ${error.message}`);
  }
}

/** The action of the command declared in download-command.ts, loaded when it runs. */
export const dataDownloadAction: Action<typeof dataDownload.flags> = async (ctx, command) => {
  const [namespace, requestId, path] = positional(command) as [string, string, string | undefined];
  return dataDownloadRun(ctx, parseNamespace(namespace), requestId, path, downloadFormat(ctx.flags, 'data download', 'the output is JSON Lines'));
};
