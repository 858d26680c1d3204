import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, ended, exitOf, hasScript, runCsafe, spawnCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

/** Progress that fits the terminal, is silent in a log unless asked, and shows stdin being read. */

const objectsText = (count: number) => Array.from({ length: count }, (_, i) => JSON.stringify({ id: `obj_${i}`, text: `listing ${i}` })).join('\n') + '\n';

describe('progress on stderr', () => {
  const emulator = useEmulatorProcess();
  const dir = tempDir();
  const dump = join(dir, 'dump.jsonl');
  writeFileSync(dump, objectsText(50));

  it('is silent on a stderr that is not a terminal, and plain lines there with --progress', async () => {
    const silent = await runCsafe(['data', 'import', 'listings', dump], { env: emulator.env });
    assert.equal(silent.code, 0, silent.stderr);
    assert.equal(silent.stderr, '');

    const logged = await runCsafe(['--progress', 'data', 'import', 'listings', dump], { env: emulator.env });
    assert.equal(logged.code, 0, logged.stderr);
    assert.match(logged.stderr, /^Checking .*dump\.jsonl…$/m);
    assert.match(logged.stderr, /^Uploading \d+(\.\d)? kB  100%  /m);
    assert.doesNotMatch(logged.stderr, /\u001b|█|\r/, 'no escape codes, bars or redraws');
  });

  it('--quiet wins over --progress', async () => {
    const result = await runCsafe(['--progress', '--quiet', 'data', 'import', 'listings', dump], { env: emulator.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
  });

  it('data import - on a terminal shows a spinner counting the bytes of stdin read so far', async (t) => {
    const child = spawnCsafe(['data', 'import', 'listings', '-'], { env: { ...emulator.env, CSAFE_FORCE_TTY: '1', COLUMNS: '40' } });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const result = ended(child);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const first = objectsText(200);
    child.stdin.write(first);
    await waitFor(() => /Reading stdin: \d+(\.\d)? kB/.test(stderr), { what: 'the spinner counting the bytes read' });
    child.stdin.end(objectsText(10).replaceAll('obj_', 'more_'));
    const { code } = await result;
    assert.equal(code, 0, stderr);
  });
});

// `script` gives csafe a real terminal, so ora and chalk draw as they would for a user.
describe('progress on a real terminal', { skip: !hasScript && 'no script(1)' }, () => {
  const emulator = useEmulatorProcess(['--processing-delay', '700ms']);
  /** What a terminal shows of `csafe …args` run with `env` (on top of the emulator's); stdout and stderr both. */
  const onTerminal = (args: readonly string[], env: Record<string, string>) =>
    new Promise<string>((resolve, reject) => {
      const line = ['env', ...Object.entries({ ...emulator.env, ...env }).map(([name, value]) => `${name}=${value}`), BIN, ...args].map((word) => `'${word}'`).join(' ');
      const { NO_COLOR: _n, FORCE_COLOR: _f, CI: _c, ...inherited } = process.env;
      const child = spawn('script', ['-qec', `stty cols 80; ${line}`, '/dev/null'], { env: { ...inherited, TERM: 'xterm-256color' } });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.on('error', reject);
      exitOf(child).then(() => resolve(output), reject);
    });
  const waitOnRequest = async (env: Record<string, string>) => {
    const added = await runCsafe(['data', 'add', 'listings', '-', '--json'], { env: emulator.env, input: objectsText(3) });
    const [{ request_id: id }] = JSON.parse(added.stdout) as Array<{ request_id: string }>;
    return onTerminal(['data', 'status', 'listings', id, '--wait', '--timeout', '30s'], env);
  };

  it('draws a spinner, in colour', async () => {
    const shown = await waitOnRequest({});
    assert.match(shown, /\u001b\[36m[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/, 'a cyan frame');
  });

  it('NO_COLOR: no colour anywhere, the spinner\'s frames included', async () => {
    const shown = await waitOnRequest({ NO_COLOR: '1' });
    assert.match(shown, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting for 1 request/, 'the spinner still draws');
    assert.doesNotMatch(shown, /\u001b\[[\d;]*m/, 'no colour code');
  });

  for (const env of [{ TERM: 'dumb' }, { CI: 'true' }] as Array<Record<string, string>>) {
    it(`${Object.entries(env)[0]!.join('=')}: no spinner and no escape codes, the plain progress line instead`, async () => {
      const shown = await waitOnRequest(env);
      assert.match(shown, /^Waiting for 1 request…\r?$/m);
      assert.doesNotMatch(shown, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/, 'no spinner frame');
      assert.doesNotMatch(shown, /\u001b\[\?(25|2026)[hl]/, 'no cursor or synchronized-output escapes');
    });
  }
});
