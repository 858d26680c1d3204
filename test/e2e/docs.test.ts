import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCsafe } from '../helpers/cli.js';

const repoFile = (path: string) => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');

/** Completions, the man page and the README must keep up with the command tree. */
describe('documentation stays in step with the commands', () => {
  it('every top-level command appears in the completions, the man page and the README', async () => {
    const help = (await runCsafe(['--help'])).stdout;
    const commands = [...help.slice(help.indexOf('Commands:')).matchAll(/^  ([a-z]+)\b/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    assert.ok(commands.includes('classify') && commands.length >= 5, commands.join(','));
    for (const file of ['completions/csafe.bash', 'completions/_csafe', 'man/csafe.1', 'README.md']) {
      const text = repoFile(file);
      for (const command of commands) assert.ok(text.includes(command), `${file} does not mention ${command}`);
    }
  });

  it('the exit codes in --help match the README table', async () => {
    const help = (await runCsafe(['--help'])).stdout;
    const readme = repoFile('README.md');
    for (const code of ['0', '1', '2', '3', '4', '5', '124', '130']) {
      assert.match(help, new RegExp(`^  ${code}\\s`, 'm'));
      assert.match(readme, new RegExp(`^\\| ${code} \\|`, 'm'));
    }
  });
});
