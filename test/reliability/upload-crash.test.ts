import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../src/emulator/http/faults.js';
import { ended, runCsafe, spawnCsafe, tempDir, withEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

// The commands that create something and upload to it (data import, batch create), killed with
// SIGKILL at points drawn from a seed — after the create call, after the upload, while waiting —
// then run again to the end: everything arrives, and the killed run left at most the one thing it
// had created (an import request or a batch nobody uploads to lapses; an import that was uploaded
// is processed too, and its objects are upserted by id). CSAFE_CRASH_SEED varies the points.

const SEED = Number(process.env.CSAFE_CRASH_SEED ?? 20_261_127);
const POINTS = 5;
const ROWS = 200;

interface Creator {
  command: string;
  /** The request that creates what the upload goes to. */
  create: { method: string; path: RegExp };
  /** How many requests a run makes before it waits: a kill point is after 1 to this many of them, or later, while it waits. */
  requestsBeforeWait: number;
  write(dir: string): void;
  args: string[];
  /** After the second run: everything the input held has arrived. */
  arrived(emulator: EmulatorProcess, dir: string): Promise<void>;
}

const CREATORS: readonly Creator[] = [
  {
    command: 'data import --wait',
    create: { method: 'POST', path: /^\/v1\/data\/listings\/(import|requests\/upload-url)$/ },
    requestsBeforeWait: 2,
    write: (dir) => writeFileSync(join(dir, 'objects.jsonl'), Array.from({ length: ROWS }, (_, i) => JSON.stringify({ id: `obj-${i}`, title: `listing ${i}` })).join('\n') + '\n'),
    args: ['data', 'import', 'listings', 'objects.jsonl', '--wait'],
    arrived: async (emulator) => {
      const { objects } = (await emulator.control('/_emulator/data/listings')) as { objects: Array<{ id: string; adds: number }> };
      assert.equal(objects.length, ROWS, 'every object arrived');
      assert.ok(objects.every((object) => object.adds <= 2), 'each object added at most twice: by the killed run, if its upload was done, and by the second');
    },
  },
  {
    command: 'batch create --wait --download',
    create: { method: 'POST', path: /^\/v1\/batches$/ },
    requestsBeforeWait: 2,
    write: (dir) => writeFileSync(join(dir, 'reviews.csv'), ['Content,source', ...Array.from({ length: ROWS }, (_, i) => `review ${i},app`)].join('\n') + '\n'),
    args: ['batch', 'create', '--type', 'text', 'reviews.csv', '--wait', '--download', 'results.csv'],
    arrived: async (_emulator, dir) => {
      const rows = readFileSync(join(dir, 'results.csv'), 'utf8').trimEnd().split('\n');
      assert.equal(rows.length, ROWS + 1, 'the result of every row, after its header');
    },
  },
];

type LogEntry = { method: string; path: string; status: number };

async function killThenRunAgain(emulator: EmulatorProcess, creator: Creator, killAfter: number): Promise<void> {
  await emulator.control('/_emulator/reset', { method: 'POST' });
  const dir = tempDir('csafe-crash-');
  creator.write(dir);
  const child = spawnCsafe(creator.args, { env: emulator.env, cwd: dir });
  const exit = ended(child);
  child.stdin.end();
  const log = async () => (await emulator.requests()) as unknown as LogEntry[];
  await waitFor(async () => (await log()).length >= killAfter || child.exitCode !== null, { what: `${killAfter} requests from ${creator.command}` });
  assert.equal(child.exitCode, null, `${creator.command} was still running at the kill point (after ${killAfter} requests)`);
  child.kill('SIGKILL');
  await exit;
  await waitFor(async () => ((await emulator.control('/_emulator/in_flight')) as { in_flight: number }).in_flight === 0, { what: 'the emulator to finish serving the killed run' });

  const again = await runCsafe(creator.args, { env: emulator.env, cwd: dir });
  assert.equal(again.code, 0, `the same command line after the kill: ${again.stderr}`);
  await creator.arrived(emulator, dir);
  const created = (await log()).filter((entry) => entry.method === creator.create.method && creator.create.path.test(entry.path) && entry.status < 300);
  assert.ok(created.length <= 2, `${created.length} created: the second run's, and at most the killed run's`);
}

describe('commands that create and upload, killed, then run again: everything arrives, at most one thing left behind', { concurrency: 2 }, () => {
  const random = mulberry32(SEED + 1);
  for (const creator of CREATORS) {
    // 1 .. requestsBeforeWait + 1: after the create call, after the upload, or while waiting.
    const killPoints = Array.from({ length: POINTS }, () => 1 + Math.floor(random() * (creator.requestsBeforeWait + 1)));
    it(`${creator.command}: SIGKILL after ${killPoints.join(', ')} requests (seed ${SEED})`, () =>
      // Processing slow enough that the run is still waiting at the last kill point.
      withEmulatorProcess(['--processing-delay', '1s'], async (emulator) => {
        for (const killAfter of killPoints) await killThenRunAgain(emulator, creator, killAfter);
      }));
  }
});
