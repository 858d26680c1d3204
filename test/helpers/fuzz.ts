import fc from 'fast-check';

// Property-based tests (fast-check): every property runs on FUZZ_RUNS generated inputs from one
// seed, printed by fast-check with the shrunk counterexample when a property fails; set
// CSAFE_FUZZ_SEED to replay a failure, or to try other inputs.

/**
 * Inputs a property: 1,000 in `npm test`, which runs on every change; `npm run test:soak` runs the
 * same properties from the same seed on 10,000 (CSAFE_FUZZ_RUNS, .ci/suite.mjs), some 40 s of CPU.
 */
export const FUZZ_RUNS = fuzzRuns(process.env.CSAFE_FUZZ_RUNS);
export const FUZZ_SEED = Number(process.env.CSAFE_FUZZ_SEED ?? 20_261_127);

const parameters = { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true };

export const fuzz = <T>(arbitrary: fc.Arbitrary<T>, property: (value: T) => boolean | void): void =>
  fc.assert(fc.property(arbitrary, property), parameters);

export const fuzzAsync = <T>(arbitrary: fc.Arbitrary<T>, property: (value: T) => Promise<boolean | void>): Promise<void> =>
  fc.assert(fc.asyncProperty(arbitrary, property), parameters);

/** Bytes cut into chunks at generated places: readers must not care where a chunk ends. */
export const inChunks = (bytes: Uint8Array, cuts: readonly number[]): Buffer[] => {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) chunks.push(Buffer.from(bytes.subarray(from, cut)));
    from = Math.max(from, cut);
  }
  return chunks;
};

/** Text made bytes, then changed where generated edits say: bytes inserted, bytes deleted, a byte replaced. */
const mutatedBytes = (text: fc.Arbitrary<string>): fc.Arbitrary<Uint8Array> =>
  fc.tuple(text, fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), fc.uint8Array({ minLength: 1, maxLength: 3 })), { maxLength: 3 })).map(([source, edits]) => {
    let bytes = Buffer.from(source);
    for (const [position, kind, some] of edits) {
      const at = position % (bytes.length + 1);
      if (kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, at), some, bytes.subarray(at)]);
      else if (kind === 'delete') bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + some.length)]);
      else if (at < bytes.length) bytes[at] = some[0]!;
    }
    return bytes;
  });

/** Some text as a file's bytes, as it comes, or changed, or any bytes at all. */
export const fileBytes = (text: fc.Arbitrary<string>): fc.Arbitrary<Uint8Array> =>
  fc.oneof({ weight: 2, arbitrary: text.map((source) => Buffer.from(source)) }, { weight: 3, arbitrary: mutatedBytes(text) }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) });

/** Chunk cuts for inChunks. */
export const cuts = fc.array(fc.nat(), { maxLength: 4 });

function fuzzRuns(asked: string | undefined): number {
  if (asked === undefined) return 1_000;
  const runs = Number(asked);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`CSAFE_FUZZ_RUNS must be a whole number above 0, not ${asked}`);
  return runs;
}
