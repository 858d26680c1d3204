import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ended, runCsafe, spawnCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
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
