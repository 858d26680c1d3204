/**
 * How many of a seeded random sample a run takes: all of them, unless CSAFE_TEST_SAMPLES (0 to 1)
 * says less. A mutation run, which runs these tests once for every mutant they reach, takes a
 * tenth (.ci/stryker.core.config.mjs): thousands of cases still.
 */
const SHARE = Math.min(1, Number(process.env.CSAFE_TEST_SAMPLES ?? 1) || 1);

export const samples = (count: number) => Math.ceil(count * SHARE);
