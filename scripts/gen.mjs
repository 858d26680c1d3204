// `npm run gen`: writes what is generated from the command tree and committed: the shell
// completions in completions/ (bash, zsh, fish). test/e2e/completion.test.ts fails when a file
// here differs from what this would write.
import { writeFileSync } from 'node:fs';
import { TREE } from '../dist/src/commands/tree.js';
import { completionScript } from '../dist/src/commands/completion/scripts.js';
import { SCRIPT_FILES, SHELLS } from '../dist/src/commands/completion/shells.js';

for (const shell of SHELLS) {
  writeFileSync(new URL(`../${SCRIPT_FILES[shell]}`, import.meta.url), completionScript(shell, TREE));
  console.log(`wrote ${SCRIPT_FILES[shell]}`);
}
