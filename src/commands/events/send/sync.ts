import { encodeBatch, ingestEvents } from '../../../api/events.js';
import type { HttpClient } from '../../../core/http/client.js';
import type { IOStreams } from '../../../core/terminal/io.js';
import { tableView, toNdjsonLine, type OutputFormat } from '../../../core/terminal/output.js';
import { allKeyed, type BatchSender } from './deliver.js';

/** One ingested event: the input line it came from and the id the service gave it. */
interface IngestedLine {
  line: number;
  event_id: string;
}

/**
 * --sync: batches go to POST /v1/events, which ingests them before answering with their ids. In a
 * pipe each event's line is printed as NDJSON as soon as its batch is acknowledged, so a run cut
 * short has said what went; on a terminal the ids are a table, by input line, at the end.
 */
export class SyncIngestion {
  private readonly rows: IngestedLine[] = [];

  constructor(
    private readonly http: HttpClient,
    private readonly io: IOStreams,
    private readonly format: OutputFormat,
  ) {}

  readonly send: BatchSender<IngestedLine[]> = async (events) => {
    const eventIds = await ingestEvents(this.http, encodeBatch(events.map((event) => event.json)), events.length, allKeyed(events));
    return events.map((event, index): IngestedLine => ({ line: event.line, event_id: eventIds[index]! }));
  };

  /** Prints the ids of a batch once the run counts it as acknowledged: stdout failing then stops the run, it does not fail a batch the service ingested. */
  readonly print = async (ingested: IngestedLine[]): Promise<void> => {
    if (this.format === 'table' || this.format === 'tsv') this.rows.push(...ingested);
    else await this.io.out(ingested.map(toNdjsonLine).join(''));
  };

  /** Prints the table (or TSV) of the ids; called also when the run stops early, so what was ingested is shown. */
  async finish(): Promise<void> {
    if ((this.format !== 'table' && this.format !== 'tsv') || this.rows.length === 0) return;
    const view = tableView(this.rows.sort((a, b) => a.line - b.line), [{ header: 'LINE', value: (row) => String(row.line) }, { header: 'EVENT_ID', value: (row) => row.event_id }]);
    await this.io.out(this.format === 'tsv' ? view.tsv() : view.table(this.io));
  }
}
