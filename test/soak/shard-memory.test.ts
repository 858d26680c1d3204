// Soak: what `data add --shard i/n` holds between its check and its sending is the objects of its
// own shard, as the spool weighs them, not the text of every line read with them. A held object's
// text had been a slice of the text of all the lines decoded with it, so a shard of a tenth held
// the whole input: peak memory some 2.3× that of an input of just its objects, where now it is
// some 1.45× (reading ten times the input costs the rest). Always 1,000,000 objects (108 MB),
// whatever CSAFE_SOAK_SCALE says: at a fifth of that, Node's own memory hides the difference.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCsafe, tempDir } from '../helpers/cli.js';

const OBJECTS = 1_000_000;
const SHARDS = 10;
const RUN_TIMEOUT_MS = 120_000;

/** The objects n of every `step` from 0, as JSON Lines. */
function writeObjects(path: string, count: number, step: number): void {
  const lines: string[] = [];
  for (let n = 0; n < count; n += step) lines.push(`{"id":"obj_${n}","title":"listing ${n}","body":"road bike number ${n}, barely used, collection only"}\n`);
  writeFileSync(path, lines.join(''));
}

/** The peak resident memory (KiB) of `csafe data add --dry-run` over `args`, as the process itself counted it when it exited. */
async function peakOf(args: string[]): Promise<number> {
  const dir = tempDir();
  const hook = join(dir, 'peak.cjs');
  const out = join(dir, 'peak');
  writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)));`);
  const result = await runCsafe(['data', 'add', 'ns', ...args, '--dry-run'], { env: { NODE_OPTIONS: `--require ${hook}` }, timeoutMs: RUN_TIMEOUT_MS });
  assert.equal(result.code, 0, result.stderr);
  return Number(readFileSync(out, 'utf8'));
}

describe('data add --shard, soak-sized', () => {
  it(`a shard of 1/${SHARDS} of ${OBJECTS.toLocaleString('en')} objects holds about what an input of just its objects does`, async () => {
    const dir = tempDir();
    const whole = join(dir, 'all.jsonl');
    const own = join(dir, 'own.jsonl');
    writeObjects(whole, OBJECTS, 1);
    writeObjects(own, OBJECTS, SHARDS);
    const sharded = await peakOf([whole, '--shard', `0/${SHARDS}`]);
    const alone = await peakOf([own]);
    assert.ok(sharded <= 1.75 * alone, `peak ${Math.round(sharded / 1024)} MiB for the shard, ${Math.round(alone / 1024)} MiB for its objects alone`);
  });
});
