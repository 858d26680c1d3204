import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { manualPages } from '../../src/commands/manual/pages.js';
import { TREE } from '../../src/commands/tree.js';

// The man pages, generated from the command tree: committed as generated, listed in package.json,
// clean under `mandoc -T lint` (Debian's mandoc; .ci/run installs it), and rendered.

const repoPath = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const pages = manualPages(TREE);
const hasMandoc = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v mandoc']);
    return true;
  } catch {
    return false;
  }
})();

describe('man pages', () => {
  it('man/ holds what `npm run gen` makes from the command tree today: csafe(1) and a page per group or command, nothing else', () => {
    assert.deepEqual(readdirSync(repoPath('man')).sort(), [...pages.keys()].sort());
    assert.deepEqual([...pages.keys()].sort(), ['csafe.1', ...TREE.map((node) => `csafe-${node.name}.1`)].sort());
    for (const [name, text] of pages) assert.equal(readFileSync(repoPath(`man/${name}`), 'utf8'), text, `man/${name} is stale: run npm run gen`);
  });

  it('package.json lists every page, so `man csafe-data` works once the package is installed', () => {
    const { man } = JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { man: string[] };
    assert.deepEqual([...man].sort(), [...pages.keys()].map((name) => `man/${name}`).sort());
  });

  it('each page has the sections of a man page, and a group\'s page every verb with its options and examples', () => {
    for (const [name, text] of pages) {
      const sections = [...text.matchAll(/^\.SH (.+)$/gm)].map((m) => m[1]);
      for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'EXIT STATUS', 'ENVIRONMENT', 'FILES', 'EXAMPLES', 'SEE ALSO']) assert.ok(sections.includes(section), `${name}: ${section}`);
    }
    const data = pages.get('csafe-data.1')!;
    for (const verb of ['add', 'import', 'status', 'download']) assert.match(data, new RegExp(`^\\.SS csafe data ${verb}$`, 'm'));
    assert.match(data, /^\\fB\\-\\-checkpoint\\fR \\fIfile\\fR$/m, 'a flag and its value');
    assert.match(data, /^\.SS Global options/m);
  });

  it('every page is clean under mandoc -T lint and renders', { skip: !hasMandoc && 'mandoc is not installed' }, () => {
    for (const name of pages.keys()) {
      assert.equal(execFileSync('mandoc', ['-T', 'lint', repoPath(`man/${name}`)], { encoding: 'utf8' }), '', `mandoc -T lint man/${name}`);
    }
    const rendered = execFileSync('mandoc', ['-T', 'utf8', repoPath('man/csafe-data.1')], { encoding: 'utf8' }).replace(/.\x08/g, '');
    assert.match(rendered, /csafe data add \[options\] <namespace> \[file\]/);
    assert.match(rendered, /--checkpoint file/);
  });
});
