// How long each compiled test file takes when it runs alone (wall time, slowest first): where the
// suite's time goes. `node .ci/file-times.mjs [files…]` after a build; the default is every test file.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const compiledTests = () =>
  readdirSync('test', { recursive: true })
    .filter((path) => path.endsWith('.test.ts'))
    .sort()
    .map((path) => join('dist', 'test', path.replace(/\.ts$/, '.js')));
const files = process.argv.length > 2 ? process.argv.slice(2) : compiledTests();
const times = [];
for (const file of files) {
  const started = process.hrtime.bigint();
  const { status } = spawnSync(process.execPath, ['.ci/suite.mjs', file], { stdio: 'ignore' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  times.push({ file, seconds, status });
  console.error(`${seconds.toFixed(1).padStart(6)} s  ${status === 0 ? 'ok  ' : 'FAIL'}  ${file}`);
}
times.sort((a, b) => b.seconds - a.seconds);
const total = times.reduce((sum, { seconds }) => sum + seconds, 0);
console.log(times.map(({ file, seconds, status }) => `${seconds.toFixed(1).padStart(6)} s  ${status === 0 ? 'ok  ' : 'FAIL'}  ${file}`).join('\n'));
console.log(`${total.toFixed(1).padStart(6)} s  total over ${times.length} files`);
