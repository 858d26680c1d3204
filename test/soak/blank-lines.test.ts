// Soak: 1 GB of blank lines, more than the longest string V8 can hold (some 512 MiB), through a
// FIFO into the real bin/csafe: a reader that kept blank lines, or the text between records, in one
// string would crash here, not at the 100 MB the bad-input corpus runs in `npm test`. Always 1 GB,
// whatever CSAFE_SOAK_SCALE says: below the string limit it would prove nothing more.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';

const GIGABYTE = 1_000_000_000;
const READ_TIMEOUT_MS = 300_000;

describe('1 GB of blank lines, soak-sized', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);
  const writers: Array<ReturnType<typeof spawn>> = [];
  after(() => writers.forEach((writer) => writer.kill('SIGKILL')));

  it('csafe data add reads all of it, keeping none, and refuses it, sending nothing: exit 2', async () => {
    const fifo = join(tempDir(), 'blank.jsonl');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `head -c ${GIGABYTE} /dev/zero | tr "\\000" "\\n" > "$1"`, 'sh', fifo], { stdio: 'ignore' });
    writers.push(writer);
    const result = await runCsafe(['data', 'add', 'corpus', fifo], { env: emulator.env, timeoutMs: READ_TIMEOUT_MS });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /holds only blank lines, expected at least one JSON record/);
    assert.doesNotMatch(result.stderr, /^\s+at |heap out of memory|Invalid string length/m);
    const sent = (await emulator.requests()).filter((request) => request.method === 'POST');
    assert.deepEqual(sent, [], 'a refused input sends nothing');
  });
});
