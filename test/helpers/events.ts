import assert from 'node:assert/strict';
import type { EmulatorProcess } from './cli.js';

/** An event as `GET /_emulator/events` lists it. */
export interface Ingested {
  idempotency_key: string | null;
  duplicates: number;
  event: { user_id: string; metadata: { n: number } } & Record<string, unknown>;
}

export interface IngestedListing {
  total: number;
  duplicates: number;
  events: Ingested[];
}

/** `count` content_uploaded events over `users` users, as JSONL; metadata.n is the event's 0-based position in the file. */
export const eventsText = (count: number, users: number) =>
  Array.from({ length: count }, (_, n) =>
    JSON.stringify({
      type: 'content_uploaded',
      event_name: 'post_published',
      timestamp: new Date(1_780_000_000_000 + n * 1000).toISOString(),
      user_id: `user_${n % users}`,
      content: [{ type: 'text', text: `post ${n}` }],
      metadata: { n },
    }),
  ).join('\n') + '\n';

export const ingestedEvents = async (emulator: EmulatorProcess) => (await emulator.control('/_emulator/events')) as IngestedListing;

/** Every event of the file ingested exactly once, and each user's events in file order. */
export function assertExactlyOnceInOrder(events: readonly Ingested[], count: number): void {
  assert.equal(events.length, count, 'one queued message per event');
  assert.equal(new Set(events.map((e) => e.event.metadata.n)).size, count, 'every event once');
  const last = new Map<string, number>();
  for (const { event } of events) {
    const previous = last.get(event.user_id) ?? -1;
    assert.ok(event.metadata.n > previous, `${event.user_id}: event ${event.metadata.n} arrived after ${previous}`);
    last.set(event.user_id, event.metadata.n);
  }
}
