import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';

// Runs that change one file at once, under its lock (the config file's, a checkpoint's), a quarter
// of them killed (SIGKILL) while they hold it: the others take the lock over from the killed, and
// from one another, and still one at a time. Each run adds one to a counter in the file; the
// counter ends at the number of runs that ended. Judged stale once and removed later, a lock had
// been another run's by then, and two runs held it: a round of these lost a change in one of four.

const ROUNDS = 8;
const RUNS = 24;
const RUN_TIMEOUT_MS = 60_000;
const lockModule = new URL('../../src/core/files/file-lock.js', import.meta.url).href;

/** One run: takes the lock (waiting for it), reads the counter, dies there if told to, writes it one more, lets go. */
const run = `
const { readFileSync, writeFileSync } = require('node:fs');
(async () => {
  const { acquireFileLockWaiting } = await import(${JSON.stringify(lockModule)});
  const [path, fate] = process.argv.slice(1);
  const lock = await acquireFileLockWaiting(path, Date.now, ${RUN_TIMEOUT_MS});
  const count = Number(readFileSync(path, 'utf8'));
  if (fate === 'killed') process.kill(process.pid, 'SIGKILL');
  writeFileSync(path, String(count + 1));
  await lock.release();
})();
`;

function runOnce(path: string, fate: 'killed' | 'ends'): Promise<number | NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', run, path, fate], { stdio: ['ignore', 'ignore', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS + 10_000);
    child.on('error', reject).on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal);
    });
  });
}

describe('a file lock under runs killed while they hold it', () => {
  it(`${ROUNDS} rounds of ${RUNS} runs at once, a quarter killed holding the lock: every change of a run that ended is kept`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = tempDir();
      const path = join(dir, 'counter');
      writeFileSync(path, '0');
      const ends = await Promise.all(Array.from({ length: RUNS }, (_, i) => runOnce(path, i % 4 === 0 ? 'killed' : 'ends')));
      assert.deepEqual(ends.filter((end) => end !== 0 && end !== 'SIGKILL'), [], `round ${round}: every run ended or was killed`);
      const ended = ends.filter((end) => end === 0).length;
      assert.equal(Number(readFileSync(path, 'utf8')), ended, `round ${round}: the counter counts every run that ended`);
      // What the killed runs leave: at most their last lock; never a takeover or anything moved aside.
      assert.deepEqual(readdirSync(dir).filter((name) => name !== 'counter' && name !== 'counter.lock'), [], `round ${round}`);
    }
  });
});
