// `npm run mutate`: StrykerJS with a temporary directory of its own (TMPDIR), removed at the end.
// A mutant can break a test's clean-up or be killed for running too long, so what the tests leave
// there is expected; it must not pile up in the machine's temporary directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const scratch = mkdtempSync(join(tmpdir(), 'csafe-mutate-'));
/**
 * The tap runner starts a node process for every test file a mutant reaches, and
 * NODE_EXTRA_CA_CERTS (set on some machines) makes each parse a certificate bundle first (some
 * 70 ms of CPU); no test talks TLS.
 */
const { NODE_EXTRA_CA_CERTS: _certificates, ...environment } = process.env;
const stryker = spawn('npx', ['--no-install', 'stryker', 'run', ...process.argv.slice(2)], {
  env: { ...environment, TMPDIR: scratch },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stryker.kill(signal));
stryker.on('exit', (code, signal) => {
  rmSync(scratch, { recursive: true, force: true });
  process.exitCode = code ?? (signal === 'SIGINT' ? 130 : 1);
});
