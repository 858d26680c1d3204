import { inShard, type Shard } from '../../../core/bulk/shard.js';
import { MAX_LINE_BYTES } from '../../../core/input/lines.js';
import type { SpoolFormat } from '../../../core/bulk/record-spool.js';
import type { ValidRecord } from './checked.js';
import { jsonString } from '../../../core/json/canonical.js';
import { outgoingJson, Placements } from './placement.js';

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
 * How a prepared event is held between the check and the sending pass (core/bulk/record-spool):
 * `position TAB line TAB slot TAB keyed (1 or 0) TAB "partition" TAB json`.
 */
export const EVENT_SPOOL: SpoolFormat<OutgoingEvent> = {
  encode: (event) => `${event.position}\t${event.line}\t${event.slot}\t${event.keyed ? 1 : 0}\t${jsonString(event.partition)}\t${event.json}`,
  decode: spooledEvent,
  // An event read from a line of at most MAX_LINE_BYTES, as compact JSON (at most 6 bytes for each character it was read from: see core/bulk/checked-records), and its placement.
  maxLineBytes: 8 * MAX_LINE_BYTES,
  // The partition's text is shared by the events of a partition.
  weight: (event) => event.json.length,
};

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
