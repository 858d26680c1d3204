// Mutation reports (StrykerJS's mutation.json) read together, for measuring again only what a run
// left alive: tests added since can only kill more of them, and the rest of that run still holds.
//   node .ci/mutants.mjs survivors REPORT...   the --mutate ranges of the mutants that survived or no test reached
//   node .ci/mutants.mjs score REPORT...       killed (or timed out) of those that ran, by file and in all
// A later report takes the place of an earlier one's mutants it also ran (same place, mutator and
// replacement); where a file's source changed, the later report's mutants of it replace the earlier's.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const [command, ...reports] = process.argv.slice(2);
if (!['survivors', 'score'].includes(command) || reports.length === 0) {
  console.error('usage: node .ci/mutants.mjs survivors|score REPORT...');
  process.exit(2);
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const idOf = (mutant) => {
  const { start, end } = mutant.location;
  return `${start.line}:${start.column}-${end.line}:${end.column} ${mutant.mutatorName} ${mutant.replacement}`;
};

/** file → { source, mutants: id → mutant }, the later reports over the earlier. */
const files = new Map();
for (const report of reports) {
  for (const [name, file] of Object.entries(JSON.parse(readFileSync(resolve(report), 'utf8')).files)) {
    const known = files.get(name);
    const merged = known?.source === file.source ? known : { source: file.source, mutants: new Map() };
    for (const mutant of file.mutants) merged.mutants.set(idOf(mutant), mutant);
    files.set(name, merged);
  }
}

if (command === 'survivors') {
  // Stryker's ranges count lines from 1 and columns from 0; a report counts both from 1.
  const ranges = new Set();
  for (const [name, { mutants }] of files) {
    for (const mutant of mutants.values()) {
      if (!UNDETECTED.has(mutant.status)) continue;
      const { start, end } = mutant.location;
      ranges.add(`${name}:${start.line}:${start.column - 1}-${end.line}:${end.column - 1}`);
    }
  }
  // An empty --mutate has Stryker mutate nothing, yet build the sandbox and run every test (a dry run): say so instead.
  if (ranges.size === 0) {
    console.error('no mutant survived in these reports: nothing to run again');
    process.exit(1);
  }
  console.log([...ranges].join(','));
} else {
  let [detected, ran] = [0, 0];
  const rows = [];
  for (const [name, { mutants }] of files) {
    const statuses = [...mutants.values()].map((mutant) => mutant.status);
    const fileDetected = statuses.filter((status) => DETECTED.has(status)).length;
    const fileRan = fileDetected + statuses.filter((status) => UNDETECTED.has(status)).length;
    rows.push({ name, alive: fileRan - fileDetected, line: `${name}  ${fileDetected} of ${fileRan}` });
    [detected, ran] = [detected + fileDetected, ran + fileRan];
  }
  for (const row of rows.sort((a, b) => b.alive - a.alive)) console.log(row.line);
  console.log(`all  ${detected} of ${ran}  ${((100 * detected) / ran).toFixed(1)} %`);
}
