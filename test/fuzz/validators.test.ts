import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { z } from 'zod';
import { UsageError } from '../../src/core/errors.js';
import { durationMs, parseDuration, sizeBytes } from '../../src/core/cli/duration.js';
import { parseJsonAt } from '../../src/core/json/position.js';
import { objectLineEnd } from '../../src/core/json/scan.js';
import { agentDecisionRequestSchema } from '../../src/schemas/agent-decisions.js';
import { CONTENT_LIMITS, contentLimitProblems, contentRequestSchema, type ContentRequest } from '../../src/schemas/content.js';
import { dataObjectProblem, isDataObject, settingsRequestSchema } from '../../src/schemas/data.js';
import { createDecisionRequestSchema } from '../../src/schemas/decisions.js';
import { deletionRequestSchema } from '../../src/schemas/deletions.js';
import { isValidEvent } from '../../src/schemas/event-check.js';
import { EVENT_EXAMPLES } from '../../src/schemas/event-examples.js';
import { explainedProblems } from '../../src/schemas/events.js';
import { streamPartProblems } from '../../src/schemas/streams.js';
import { EXAMPLES } from '../helpers/cli.js';
import { fuzz } from '../helpers/fuzz.js';

// Every validator of what csafe sends, fed its own valid examples changed field by field and any
// value at all: it never throws, it accepts what is valid, and where a hand-written check stands in
// for zod (events, data objects, the byte scan of import lines) the two give the same verdict —
// the check csafe runs before sending is the one the emulator answers with.

/** Values a field is often given by mistake, beside any JSON at all. */
const oddValue = fc.oneof(
  fc.constantFrom('', ' ', 'x', 0, -1, 1.5, 1e21, true, null, [], {}, '2026-11-21T10:00:00Z', '2026-11-21T10:00:00', 'https://example.com/a', 'not a url', '12.50', '-1', 'USD', 'usd', 'XXX', 'a_b', 'A B', '\u0000', 'x'.repeat(300)),
  fc.jsonValue({ maxDepth: 2 }),
);

/** An example changed by a few edits: a field removed, a field (its own, or one it does not have) set to an odd value. */
function edited(example: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(example);
  const edit = fc.oneof(
    fc.constantFrom(...keys).map((key) => ({ remove: key })),
    fc.tuple(fc.oneof(fc.constantFrom(...keys), fc.constantFrom('type', 'extra', 'userId', '__proto__')), oddValue).map(([key, value]) => ({ key, value })),
  );
  return fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => {
    const copy: Record<string, unknown> = { ...example };
    for (const change of edits) {
      if ('remove' in change) delete copy[change.remove];
      else Object.defineProperty(copy, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
    }
    return copy;
  });
}

const firstLine = (file: string) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8').split('\n')[0]!) as Record<string, unknown>;
const linesOf = (file: string) => readFileSync(join(EXAMPLES, file), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('fuzzing the event check', () => {
  const examples = Object.values(EVENT_EXAMPLES) as unknown as Record<string, unknown>[];
  const events = fc.oneof(fc.oneof(...examples.map(edited)), fc.anything(), fc.constantFrom(...examples));

  it('the hand-written check and zod agree on every value, with and without unknown types', () => {
    fuzz(events, (event) => {
      for (const allowUnknownTypes of [false, true]) {
        assert.equal(isValidEvent(event, allowUnknownTypes), explainedProblems(event, { allowUnknownTypes }).length === 0, JSON.stringify(event));
      }
    });
  });

  it('accepts every example of the spec', () => {
    for (const example of examples) assert.equal(isValidEvent(example, false), true, JSON.stringify(example));
  });
});

describe('fuzzing the data object check and the byte scan of import lines', () => {
  const objects = fc.oneof(edited({ id: 'listing-1', title: 'Road bike', price: 12 }), fc.anything(), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })).map((rest) => ({ ...rest, id: 'x' })));

  it('the hand-written check and zod agree; valid objects are accepted', () => {
    fuzz(objects, (value) => assert.equal(isDataObject(value), dataObjectProblem(value) === undefined, JSON.stringify(value)));
  });

  it('the byte scan is never sure of a line the exact check refuses', () => {
    const line = fc.oneof(objects.map((value) => JSON.stringify(value) ?? 'undefined'), fc.string(), fc.constantFrom('{"id":"a","id":"b"}', '{"id":"a","x":{"k":1,"k":2}}', '{"\\u0069d":"a"}'));
    fuzz(line, (text) => {
      const bytes = Buffer.from(`${text}\n`);
      if (objectLineEnd(bytes, 0, bytes.length, Buffer.from('id')) === -1) return;
      const record = parseJsonAt(text, 1);
      assert.ok('value' in record && dataObjectProblem(record.value) === undefined, text);
    });
  });
});

/** A schema's verdict: never a throw, whatever the value. */
const verdict = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

describe('fuzzing the request schemas', () => {
  const cases: Array<[string, z.ZodType, Record<string, unknown>[]]> = [
    ['namespace settings', settingsRequestSchema, [{ schema: JSON.parse(readFileSync(join(EXAMPLES, 'schema.json'), 'utf8')) as Record<string, unknown> }]],
    ['a decision', createDecisionRequestSchema, [{ type: 'text', content: { text: 'hello' }, metadata: { source: 'web' } }]],
    ['an agent decision', agentDecisionRequestSchema, [firstLine('agent-decisions.jsonl')]],
    ['a deletion request', deletionRequestSchema, [firstLine('deletion-requests.jsonl')]],
  ];
  for (const [what, schema, examples] of cases) {
    it(`${what}: the examples pass, and no value makes the check throw`, () => {
      for (const example of examples) assert.equal(verdict(schema, example), true, JSON.stringify(example));
      fuzz(fc.oneof(...examples.map(edited), fc.anything()), (value) => void verdict(schema, value));
    });
  }

  it('stream parts: every example passes, no value makes the check throw, and every problem names a field of the part', () => {
    const parts = linesOf('parts.jsonl');
    for (const part of parts) assert.deepEqual(streamPartProblems(part), [], JSON.stringify(part));
    fuzz(fc.oneof(...parts.map(edited), fc.anything()), (part) => {
      for (const problem of streamPartProblems(part)) assert.ok(Array.isArray(problem.path) && problem.message.length > 0);
    });
  });

  it('metadata: refused exactly when its JSON is over 8,000 bytes', () => {
    const metadata = fc.tuple(fc.integer({ min: 7_950, max: 8_050 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }));
    fuzz(metadata, ([length, rest]) => {
      const value = { ...rest, note: 'é'.repeat(Math.floor(length / 2)) };
      const body: ContentRequest = { content: [{ type: 'text', text: 'hi' }], user_id: 'u1', metadata: value };
      assert.ok(contentRequestSchema.safeParse(body).success);
      const over = Buffer.byteLength(JSON.stringify(value)) > CONTENT_LIMITS.metadataBytes;
      assert.equal(contentLimitProblems(body).some((problem) => problem.path[0] === 'metadata'), over);
    });
  });
});

describe('fuzzing durations and sizes', () => {
  const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
  const amount = fc.oneof(fc.nat({ max: 10_000 }).map(String), fc.tuple(fc.nat({ max: 99 }), fc.nat({ max: 999 })).map(([whole, part]) => `${whole}.${part}`));

  it('a duration of parts such as 1h30m or 1.5s is read as the sum of its parts', () => {
    fuzz(fc.array(fc.tuple(amount, fc.constantFrom('ms', 's', 'm', 'h')), { minLength: 1, maxLength: 3 }), (parts) => {
      const text = parts.map(([number, unit]) => `${number}${unit}`).join('');
      assert.equal(durationMs(text), Math.round(parts.reduce((total, [number, unit]) => total + Number(number) * UNIT_MS[unit], 0)), text);
    });
  });

  it('any text is a duration, or a usage error naming the flag: never another throw', () => {
    fuzz(fc.oneof(fc.string(), fc.stringMatching(/^-?[0-9.]{0,4}(ms|s|m|h|d)?[0-9]{0,2}$/)), (text) => {
      try {
        assert.ok(Number.isFinite(parseDuration(text, '--timeout')));
      } catch (error) {
        assert.ok(error instanceof UsageError && error.message.startsWith('--timeout: '), String(error));
      }
    });
  });

  it('a size with any unit, spaced or not, is read in bytes; any other text is not a size', () => {
    const SIZE = { '': 1, B: 1, kB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 } as const;
    fuzz(fc.tuple(amount, fc.constantFrom(...(Object.keys(SIZE) as (keyof typeof SIZE)[])), fc.boolean()), ([number, unit, spaced]) => {
      const text = `${number}${spaced && unit !== '' ? ' ' : ''}${unit}`;
      assert.equal(sizeBytes(text), Math.round(Number(number) * SIZE[unit]), text);
    });
    fuzz(fc.string(), (text) => {
      const bytes = sizeBytes(text);
      assert.ok(bytes === undefined || Number.isFinite(bytes), text);
    });
  });
});
