import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';

describe('Ctrl-C', () => {
  let emulator: EmulatorProcess;
  before(async () => {
    emulator = await startEmulatorProcess(['--latency', '3000']);
  });
  after(() => emulator.stop());

  it('stops a request in flight and exits 130', async () => {
    const child = spawn(process.execPath, [BIN, 'classify', '--text', 'hi', '--user-id', 'u1'], {
      env: { ...process.env, ...emulator.env, CSAFE_CONFIG_DIR: tempDir() },
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise((r) => setTimeout(r, 800));
    const started = Date.now();
    child.kill('SIGINT');
    assert.equal(await exited, 130);
    assert.ok(Date.now() - started < 1500, 'it did not wait for the slow answer');
    assert.match(stderr, /interrupted/);
  });
});
