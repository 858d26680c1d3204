import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ended, runCsafe, spawnCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { eventsText } from '../helpers/events.js';
import { waitFor } from '../helpers/wait.js';

const spools = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('csafe-spool-'));

describe('a spool left by a killed events send --checkpoint', () => {
  const emulator = useEmulatorProcess();

  it('is removed by the next run that spools, once its process is gone', async () => {
    const tmp = tempDir();
    const dir = tempDir();
    const env = { ...emulator.env, TMPDIR: tmp };
    const killed = spawnCsafe(['events', 'send', '-', '--checkpoint', join(dir, 'checkpoint')], { env });
    // stdin stays open: the run is copying it to its spool when it is killed.
    killed.stdin.write(eventsText(3, 1));
    const left = await waitFor(() => spools(tmp)[0], { what: 'the spool of the run to be killed' });
    killed.kill('SIGKILL');
    await ended(killed);
    assert.deepEqual(spools(tmp), [left], 'SIGKILL leaves the spool behind');

    // A run that copies stdin for its checkpoint (a run holding its few records in memory writes no spool).
    const next = await runCsafe(['events', 'send', '-', '--checkpoint', join(dir, 'other-checkpoint')], { env, input: eventsText(3, 1) });
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(spools(tmp), [], 'the next run removed the leftover and its own spool');
  });
});
