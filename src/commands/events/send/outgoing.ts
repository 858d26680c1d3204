import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { inShard, type Shard } from '../../../core/bulk/shard.js';
import { LineSplitter, MAX_LINE_BYTES } from '../../../core/input/lines.js';
import { spoolToTempFile, type SpooledInput } from '../../../core/input/spool.js';
import type { ValidRecord } from './checked.js';
import { jsonString, outgoingJson, Placements } from './placement.js';

/** An event on its way: where it came from, which partition it keeps order in, and the exact text sent. */
export interface OutgoingEvent {
  position: number;
  line: number;
  partition: string;
  slot: number;
  /** It carries an idempotency_key, so the service stores it once however often it is sent: its batch may be sent again after a lost answer. */
  keyed: boolean;
  json: string;
}

/** What a valid event becomes: its placement (hashed once per partition), kept to --shard, and its text as sent. */
export class EventPreparer {
  private readonly placements = new Placements();

  constructor(
    private readonly options: { shard?: Shard; autoIdempotency: boolean },
    /** Where the events of other shards are counted. */
    private readonly skipped: { other_shards: number },
  ) {}

  /** The event as it will be sent, or undefined when it belongs to another shard. */
  prepare(record: ValidRecord): OutgoingEvent | undefined {
    const { partition, slot, shardHash } = this.placements.of(record.event);
    if (!inShard(shardHash, this.options.shard)) {
      this.skipped.other_shards++;
      return undefined;
    }
    const keyed = this.options.autoIdempotency || typeof record.event.idempotency_key === 'string';
    return { position: record.position, line: record.line, partition, slot, keyed, json: outgoingJson(record.event, this.options.autoIdempotency) };
  }
}

/**
 * Keeps prepared events in a private temporary file while the rest of the input is checked, so
 * that sending starts only once all of it has passed, and no line is parsed twice. One event a
 * line: `position TAB line TAB slot TAB keyed (1 or 0) TAB "partition" TAB json` (JSON text holds no raw tab or newline).
 */
export const spoolEvents = (groups: AsyncIterable<readonly OutgoingEvent[]>, signal: AbortSignal): Promise<SpooledInput> =>
  spoolToTempFile(Readable.from(spoolText(groups)), signal);

async function* spoolText(groups: AsyncIterable<readonly OutgoingEvent[]>): AsyncGenerator<string> {
  for await (const events of groups) {
    let text = '';
    for (const event of events) text += `${event.position}\t${event.line}\t${event.slot}\t${event.keyed ? 1 : 0}\t${jsonString(event.partition)}\t${event.json}\n`;
    if (text !== '') yield text;
  }
}

/**
 * The events spoolEvents kept, in the same order, a chunk at a time. Each line is decoded on its
 * own, so an event waiting in a lane holds its own text, not the whole chunk it was read with.
 */
export async function* spooledEvents(path: string): AsyncGenerator<OutgoingEvent[]> {
  const lines = new LineSplitter(MAX_SPOOL_LINE_BYTES);
  let events: OutgoingEvent[] = [];
  const take = (bytes: Buffer, start: number, end: number) => void events.push(spooledEvent(bytes.toString('utf8', start, end)));
  for await (const chunk of createReadStream(path, { highWaterMark: SPOOL_CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    lines.push(chunk, take);
    yield events;
    events = [];
  }
  lines.end(take);
  if (events.length > 0) yield events;
}

const SPOOL_CHUNK_BYTES = 1 << 20;
/**
 * A spooled line is an event read from a line of at most MAX_LINE_BYTES, as compact JSON (at most
 * 6 bytes for each character it was read from: see core/bulk/checked-records), and its placement.
 */
const MAX_SPOOL_LINE_BYTES = 8 * MAX_LINE_BYTES;

function spooledEvent(text: string): OutgoingEvent {
  const positionEnd = text.indexOf('\t');
  const lineEnd = text.indexOf('\t', positionEnd + 1);
  const slotEnd = text.indexOf('\t', lineEnd + 1);
  const keyedEnd = slotEnd + 2;
  const partitionEnd = text.indexOf('\t', keyedEnd + 1);
  const literal = text.slice(keyedEnd + 1, partitionEnd);
  return {
    position: Number(text.slice(0, positionEnd)),
    line: Number(text.slice(positionEnd + 1, lineEnd)),
    slot: Number(text.slice(lineEnd + 1, slotEnd)),
    keyed: text[slotEnd + 1] === '1',
    // Only a partition with a quote, a backslash or a control character was escaped.
    partition: literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1),
    json: text.slice(partitionEnd + 1),
  };
}
