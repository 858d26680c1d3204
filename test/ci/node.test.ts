import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { it } from 'node:test';

// npm puts node_modules/.bin first on PATH, and there `node` is the Node 22 that the matrix pins
// (scripts/test-matrix.mjs): a suite started as `node …` from npm would run csafe on it, never on
// the machine's own Node, which is the one csafe must work on.
it('the suite, and csafe as it starts it, run on the Node that runs npm', () => {
  const onPath = execFileSync('node', ['-p', 'process.execPath'], { encoding: 'utf8' }).trim();
  assert.equal(realpathSync(onPath), realpathSync(process.execPath), '`node` on PATH (what `#!/usr/bin/env node` finds) is the Node running the tests');
  const npmNode = process.env.npm_node_execpath;
  if (npmNode !== undefined) assert.equal(realpathSync(process.execPath), realpathSync(npmNode), 'the tests run on the Node that runs npm');
});
