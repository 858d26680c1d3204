// `npm run mutate`: StrykerJS with a temporary directory of its own (TMPDIR), removed at the end.
// A mutant can break a test's clean-up or be killed for running too long, so what the tests leave
// there is expected; it must not pile up in the machine's temporary directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const scratch = mkdtempSync(join(tmpdir(), 'csafe-mutate-'));
const stryker = spawn('npx', ['--no-install', 'stryker', 'run', ...process.argv.slice(2)], {
  env: { ...process.env, TMPDIR: scratch },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stryker.kill(signal));
stryker.on('exit', (code, signal) => {
  rmSync(scratch, { recursive: true, force: true });
  process.exitCode = code ?? (signal === 'SIGINT' ? 130 : 1);
});
