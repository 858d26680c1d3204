import { errorMessage } from '../../../api/responses.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import { fitList, largeItemText, printResult, recordView, resultWriter, tableView, type Column, type LargeItem, type OutputFormat, type StreamView } from '../../../core/terminal/output.js';
import { FAILED_SHOWN, failedObjectLine, isLargeRecord, type LargeRecord } from './output.js';
import { bySeverity } from '../../../schemas/content.js';
import { countOf } from '../../../core/terminal/words.js';
import { isImportRecord, REQUEST_STATUSES, type DataEntry, type RequestRecord } from '../../../schemas/data.js';


/** `violence:match, spam:review`: each label with its decision, when the service gave one, the decisive first. */
const labelTexts = (entry: DataEntry) =>
  bySeverity(entry.output?.labels ?? [], (l) => l.decision).map((l) => (typeof l.decision === 'string' ? `${l.label}:${l.decision}` : l.label));

export const formatLabels = (entry: DataEntry) => labelTexts(entry).join(', ');

/** One object of an add request as the data commands print it: the entry as returned, with its request and status. */
export type ObjectLine = { request_id: string; status: string } & DataEntry;

/**
 * The objects of add-type records, in order, each with its own outcome: `failed` when the service
 * reports an error for it; an object that has its output was processed even when another object
 * failed its request, so it is `succeeded` then.
 */
export const objectLines = (records: readonly RequestRecord[]): ObjectLine[] =>
  records.flatMap((record) => (record.data ?? []).map((entry) => ({ request_id: record.request_id, status: objectStatus(record, entry), ...entry })));

function objectStatus(record: RequestRecord, entry: DataEntry): string {
  if (errorMessage(entry) !== undefined) return 'failed';
  return record.status === 'failed' && entry.output !== undefined ? 'succeeded' : record.status;
}

const OBJECT_COLUMNS: Column<ObjectLine>[] = [
  { header: 'ID', value: (o) => o.id },
  { header: 'STATUS', value: (o) => o.status, style: (o, text, color) => (o.status === 'failed' ? color.red(text) : text) },
  { header: 'LABELS', value: formatLabels, fit: (o, width) => fitList(labelTexts(o), width) },
  { header: 'URL', value: (o) => o.url ?? '' },
  { header: 'ERROR', value: (o) => errorMessage(o) ?? '' },
];


const IMPORT_FIELDS = ['request_id', 'namespace', 'status', 'data_count', 'data_url', 'data_expires_at'] as const;

/**
 * An import-type record as `key: value` lines: the spec's fields first, then the error, then
 * anything else the service sent. A data_url or data_expires_at not known yet (null) shows empty.
 */
function importRecordView(record: RequestRecord) {
  const error = errorMessage(record);
  const { error: _error, ...rest } = record as RequestRecord & { error?: unknown };
  const ordered: Record<string, unknown> = {};
  for (const field of IMPORT_FIELDS) if (rest[field] !== undefined) ordered[field] = rest[field] ?? '';
  if (error !== undefined) ordered.error = error;
  for (const [field, value] of Object.entries(rest)) if (!(field in ordered)) ordered[field] = value;
  return recordView(ordered);
}

/**
 * A record of either shape, as `data status` prints it: an import's summary, or the table of an
 * add request's objects (its status in a note above it); JSON and NDJSON as returned.
 */
export async function printRequestRecord(io: IOStreams, format: OutputFormat, record: RequestRecord | LargeRecord): Promise<void> {
  if (isLargeRecord(record)) return printLargeRecord(io, format, record);
  if (isImportRecord(record)) return printResult(io, format, record, importRecordView(record));
  if (format === 'table') io.note(`request ${record.request_id}: ${record.status}, ${countOf(record.data?.length ?? 0, 'object')}`);
  return printResult(io, format, record, tableView(objectLines([record]), OBJECT_COLUMNS));
}

/** A record over the 5 MiB answered inline, printed as printRequestRecord prints a record, its objects downloaded as they are printed. */
async function printLargeRecord(io: IOStreams, format: OutputFormat, record: LargeRecord): Promise<void> {
  if (format === 'table') io.note(`request ${record.request_id}: ${record.status}, its objects downloaded (over 5 MiB)`);
  // One record, not a list of them: in JSON the record alone, as `data status` prints a small one.
  if (format === 'json' || format === 'ndjson') {
    await record.withObjects(async (objects) => {
      for await (const chunk of largeItemText(largeItemOf(record, objects), format)) await io.out(chunk);
    });
    return io.out(format === 'json' ? '\n' : '');
  }
  const writer = resultWriter(io, format, requestRecordsView);
  await record.withObjects((objects) => writer.printLarge(largeItemOf(record, objects)));
  await writer.end();
}

/** A large record as a large item: its fields, then its objects under `data`. */
export const largeItemOf = (record: LargeRecord, objects: AsyncIterable<unknown>): LargeItem => ({
  head: { namespace: record.namespace, request_id: record.request_id, status: record.status },
  field: 'data',
  values: objects,
});

/** The final records of `data add --wait`, as `data status` prints each: their objects in one table (or TSV), JSON an array of the records. */
export const requestRecordsView: StreamView<RequestRecord, ObjectLine> = {
  rows: (record) => objectLines([record]),
  columns: OBJECT_COLUMNS,
  // An object of a large record, kept for a table with what its columns show, not its fields.
  largeRow: (head, value) => {
    const entry = value as DataEntry;
    const slim = { id: entry.id, url: entry.url, error: entry.error, output: { labels: entry.output?.labels ?? [] } };
    return objectLines([{ ...(head as { request_id: string; status: string }), data: [slim] }])[0]!;
  },
};

/** The first failed objects named, then how many more: `object "a": …; and 4 more`. */
const failedObjects = (shown: readonly string[], count: number) => shown.join('; ') + (count > shown.length ? `; and ${count - shown.length} more` : '');

/** `3 queued · 2 ingesting · 5 succeeded`: the spec's statuses in their order, then any others. */
export function statusCounts(records: Iterable<{ status: string }>): string {
  const counts = new Map<string, number>(REQUEST_STATUSES.map((status) => [status, 0]));
  for (const { status } of records) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 0).map(([status, n]) => `${n} ${status}`).join(' · ');
}

/** Why a request ended `failed`, in one line: the import's error, or the objects that could not be processed. */
export function describeFailure(record: RequestRecord | LargeRecord): string {
  if (isLargeRecord(record)) return `request ${record.request_id} failed: ${failedObjects(record.failed.shown, record.failed.count) || 'the service gave no reason'}`;
  const own = errorMessage(record);
  const objects = (record.data ?? []).flatMap((entry) => {
    const message = errorMessage(entry);
    return message === undefined ? [] : [failedObjectLine(entry.id, message)];
  });
  const shown = failedObjects(objects.slice(0, FAILED_SHOWN), objects.length);
  return `request ${record.request_id} failed: ${own ?? (shown || 'the service gave no reason')}`;
}
