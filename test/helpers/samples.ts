/**
 * How many of a seeded random sample a run takes: all of them, unless CSAFE_TEST_SAMPLES (a share
 * above 0, at most 1) says less; anything else means all. A mutation run, which runs these tests
 * once for every mutant they reach, takes a tenth (.ci/stryker.core.config.mjs): thousands of
 * cases still.
 */
const asked = Number(process.env.CSAFE_TEST_SAMPLES);
const SHARE = asked > 0 && asked <= 1 ? asked : 1;

export const samples = (count: number) => Math.ceil(count * SHARE);
