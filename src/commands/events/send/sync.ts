import type { HttpClient } from '../../../core/http/client.js';
import { unlessReaderGone, type IOStreams } from '../../../core/terminal/io.js';
import { resultWriter, type OutputFormat, type ResultWriter, type StreamView } from '../../../core/terminal/output.js';
import { ingestBatch, type BatchSender } from './deliver.js';

/** One ingested event: the input line it came from and the id the service gave it. */
interface IngestedLine {
  line: number;
  event_id: string;
}

/**
 * --sync: batches go to POST /v1/events, which ingests them before answering with their ids. In a
 * pipe each event's line is printed as soon as its batch is acknowledged (NDJSON, or an element of
 * --json's array), so a run cut short has said what went; on a terminal the ids are a table, by
 * input line, at the end.
 */
export class SyncIngestion {
  private readonly results: ResultWriter<IngestedLine>;

  constructor(
    private readonly http: HttpClient,
    io: IOStreams,
    format: OutputFormat,
  ) {
    this.results = resultWriter(io, format, INGESTED_LINES);
  }

  readonly send: BatchSender<IngestedLine[]> = async (events) => {
    const eventIds = await ingestBatch(this.http)(events);
    return events.map((event, index): IngestedLine => ({ line: event.line, event_id: eventIds[index]! }));
  };

  /**
   * Prints the ids of a batch once the run counts it as acknowledged: stdout failing then stops the
   * run, it does not fail a batch the service ingested. The reader gone (`| head`) stops it as Ctrl-C
   * does, and the run says what it sent.
   */
  readonly print = async (ingested: IngestedLine[]): Promise<void> => {
    for (const line of ingested) await this.results.print(line).catch(unlessReaderGone);
  };

  /** Ends the output; called also when the run stops early, so what was ingested is shown. */
  finish(): Promise<void> {
    return this.results.end().catch(unlessReaderGone);
  }
}

/** The ids on a terminal: a table by input line. */
const INGESTED_LINES: StreamView<IngestedLine, IngestedLine> = {
  rows: (line) => [line],
  columns: [{ header: 'LINE', value: (row) => String(row.line) }, { header: 'EVENT_ID', value: (row) => row.event_id }],
  order: (a, b) => a.line - b.line,
};
