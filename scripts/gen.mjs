// `npm run gen`: writes what is generated from the command tree and committed: the shell
// completions in completions/ (bash, zsh, fish) and the man pages in man/ (csafe.1 and a page per
// group). test/e2e/completion.test.ts and test/e2e/manual.test.ts fail when a file differs from
// what this would write.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { TREE } from '../dist/src/commands/tree.js';
import { completionScript } from '../dist/src/commands/completion/scripts.js';
import { SCRIPT_FILES, SHELLS } from '../dist/src/commands/completion/shells.js';
import { manualPages } from '../dist/src/commands/manual/pages.js';

for (const shell of SHELLS) {
  writeFileSync(new URL(`../${SCRIPT_FILES[shell]}`, import.meta.url), completionScript(shell, TREE));
  console.log(`wrote ${SCRIPT_FILES[shell]}`);
}

// A page whose command is gone goes too.
const pages = manualPages(TREE);
for (const name of readdirSync(new URL('../man/', import.meta.url))) if (name.endsWith('.1') && !pages.has(name)) rmSync(new URL(`../man/${name}`, import.meta.url));
for (const [name, text] of pages) writeFileSync(new URL(`../man/${name}`, import.meta.url), text);
console.log(`wrote ${pages.size} man pages in man/`);
