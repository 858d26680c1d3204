// Mutation testing of src/core by the core's own unit tests alone (test/core). The emulator reuses
// the core (its JSON reader, its line splitter) in every request, and each in-process command test
// runs an emulator, so with every test a mutant of those modules that survives runs some hundred
// test files before it is judged, and a folder takes hours. Fewer tests can only kill fewer
// mutants: the score is a lower bound of what stryker.config.json measures. A mutant of a module's
// top level would run every test file: those are left out (ignoreStatic).
// `npm run mutate -- .ci/stryker.core.config.mjs --mutate "src/core/cli/**/*.ts"`
// CSAFE_MUTATE_TESTS (comma-separated globs) narrows the tests further, to the files that test a
// module's own job: a lower bound still, for modules most of the core's tests pass through.
import { readFileSync } from 'node:fs';

// The seeded differential tests (test/core/json/scan.test.ts, position.test.ts) run a tenth of
// their samples (test/helpers/samples.ts): they run once for every mutant they reach, and a tenth
// is still thousands of lines. A lower bound still.
process.env.CSAFE_TEST_SAMPLES ??= '0.1';

const base = JSON.parse(readFileSync(new URL('../stryker.config.json', import.meta.url), 'utf8'));

export default {
  ...base,
  mutate: ['src/core/**/*.ts'],
  ignoreStatic: true,
  tap: {
    ...base.tap,
    testFiles: process.env.CSAFE_MUTATE_TESTS?.split(',') ?? ['dist/test/core/**/*.test.js'],
  },
};
