import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCsafe, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
import { writeLargeJsonl } from '../helpers/jsonl.js';

const MB = 1_000_000;
const MiB = 1024 * 1024;
/**
 * What csafe may use beyond its own size for one line: V8 lets up to 64 MB of spent read buffers
 * wait for a collection, and validation grows the young generation; neither depends on the file.
 */
const GROWTH_BOUND_MIB = 100;
/** Node itself and csafe's modules take ~110 MiB for a one-line import; this is a sanity cap above that. */
const RSS_BOUND_MIB = 256;
const TIME = '/usr/bin/time';

describe('csafe data import of a large file', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();

  before(async () => {
    // Processing takes long: the emulator should not be ingesting 200 MB while the other tests run.
    emulator = await startEmulatorProcess(['--processing-delay', '10m']);
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Imports the file under `time -v`: the peak RSS of the csafe process, measured from outside. */
  async function importMeasured(file: string): Promise<{ peakMiB: number; seconds: number; summary: { bytes: number } }> {
    const stats = join(dir, 'time.txt');
    const started = Date.now();
    const result = await runCsafe(['data', 'import', 'bulk', file, '--json'], { env: emulator.env, wrapper: [TIME, '-v', '-o', stats] });
    assert.equal(result.code, 0, result.stderr);
    const peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(stats, 'utf8'))?.[1]);
    assert.ok(peakKb > 0, 'time -v reported the peak RSS');
    return { peakMiB: (peakKb * 1024) / MiB, seconds: (Date.now() - started) / 1000, summary: JSON.parse(result.stdout) };
  }

  it(`validates and uploads 200 MB in flat memory: peak RSS within ${GROWTH_BOUND_MIB} MiB of a one-line import`, { skip: !existsSync(TIME) && `needs ${TIME}` }, async (t) => {
    const one = join(dir, 'one.jsonl');
    writeFileSync(one, '{"id":"obj_0"}\n');
    const baseline = await importMeasured(one);

    const large = join(dir, 'large.jsonl');
    const size = writeLargeJsonl(large, 200 * MB);
    const measured = await importMeasured(large);
    rmSync(large);
    assert.equal(measured.summary.bytes, size);
    const [put] = ((await emulator.requests()) as Array<Record<string, unknown>>).filter((entry) => entry.method === 'PUT' && entry.content_length === size);
    assert.equal(put!.status, 200);

    t.diagnostic(`${(size / MB).toFixed(0)} MB validated and uploaded in ${measured.seconds.toFixed(1)} s; peak RSS ${measured.peakMiB.toFixed(1)} MiB (one line: ${baseline.peakMiB.toFixed(1)} MiB)`);
    assert.ok(measured.peakMiB - baseline.peakMiB < GROWTH_BOUND_MIB, `peak RSS ${measured.peakMiB.toFixed(1)} MiB against ${baseline.peakMiB.toFixed(1)} MiB for one line`);
    assert.ok(measured.peakMiB < RSS_BOUND_MIB, `peak RSS ${measured.peakMiB.toFixed(1)} MiB`);
  });
});
