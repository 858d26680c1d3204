import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { runCsafe, tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

/** `--shard i/n` on every command that sends record by record: n workers cover one file exactly once between them. */
/** The worker of n a record's key (`id:obj_1`, `line:12`) belongs to, written out here from the documented rule: bytes 4–7 of sha256(key), mod n. */
const workerOf = (key: string, n: number) => createHash('sha256').update(key).digest().readUInt32BE(4) % n;

describe('csafe --shard i/n', () => {
  const emulator = useEmulatorProcess();
  const dir = tempDir();
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const run = (args: string[]) => runCsafe(args, { env: emulator.env, cwd: dir });
  const ndjson = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  const posted = async (path: string) =>
    (await emulator.requests()).filter((r) => r.method === 'POST' && r.path === path).map((r) => JSON.parse(String(r.body)) as Record<string, unknown>);
  beforeEach(() => emulator.control('/_emulator/reset', { method: 'POST' }));

  it('data add --shard i/3 for i = 0, 1, 2 adds every object exactly once', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `obj_${i}`);
    const items = file('items.jsonl', ids.map((id) => JSON.stringify({ id, text: `listing ${id}` })).join('\n') + '\n');
    const workers = await Promise.all([0, 1, 2].map((i) => run(['data', 'add', 'listings', items, '--shard', `${i}/3`, '--batch-size', '25', '--failed', `failed-${i}.jsonl`])));
    for (const worker of workers) assert.equal(worker.code, 0, worker.stderr);
    const sentIds = (await posted('/v1/data/listings')).flatMap((body) => (body.data as Array<{ id: string }>).map((object) => object.id));
    assert.equal(sentIds.length, ids.length, 'no object sent twice');
    assert.deepEqual([...sentIds].sort(), [...ids].sort(), 'every object sent');
    const stored = (await emulator.control('/_emulator/data/listings')) as { objects: Array<{ id: string }> };
    assert.deepEqual(stored.objects.map((object) => object.id).sort(), [...ids].sort());
    const added = workers.map((worker) => Number(/added (\d+) objects? to listings/.exec(worker.stderr)?.[1]));
    assert.ok(added.every((count) => count > 50), `every worker gets a part: ${added}`);
    assert.deepEqual(added, [0, 1, 2].map((i) => ids.filter((id) => workerOf(`id:${id}`, 3) === i).length), 'worker i adds the objects whose id hashes to i');
    workers.forEach((worker, i) => assert.match(worker.stderr, new RegExp(`; ${300 - added[i]!} objects of other shards \\(--shard ${i}/3\\)`)));
  });

  it('data add --shard with --checkpoint: a re-run of the same shard resumes, another shard is refused', async () => {
    const items = file('resume.jsonl', Array.from({ length: 60 }, (_, i) => JSON.stringify({ id: `r_${i}`, text: 'x' })).join('\n') + '\n');
    const checkpoint = join(dir, 'state-1.json');
    const first = await run(['data', 'add', 'listings', items, '--shard', '1/3', '--checkpoint', checkpoint]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(JSON.parse(readFileSync(checkpoint, 'utf8')).shard, '1/3');
    const again = await run(['data', 'add', 'listings', items, '--shard', '1/3', '--checkpoint', checkpoint]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /added 0 objects to listings in 0 requests; \d+ objects skipped by checkpoint/);
    const before = (await posted('/v1/data/listings')).length;
    for (const other of [['--shard', '2/3'], []]) {
      const refused = await run(['data', 'add', 'listings', items, ...other, '--checkpoint', checkpoint]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, new RegExp(`${checkpoint} was written for --shard 1/3, not ${other[1] ?? '\\(none\\)'}`));
    }
    assert.equal((await posted('/v1/data/listings')).length, before, 'the refused runs sent nothing');
  });

  it('classify --batch --shard i/3 for i = 0, 1, 2 classifies every line exactly once, each output tagged with its line', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => JSON.stringify({ text: `message ${i}`, user_id: `u${i % 7}` }));
    const input = file('lines.jsonl', lines.join('\n') + '\n');
    const workers = await Promise.all([0, 1, 2].map((i) => run(['classify', '--batch', input, '--shard', `${i}/3`, '--failed', `classify-failed-${i}.jsonl`])));
    for (const worker of workers) assert.equal(worker.code, 0, worker.stderr);
    const outputLines = workers.map((worker) => ndjson(worker.stdout).map((result) => result.line as number));
    assert.ok(outputLines.every((mine) => mine.length > 5), `every worker gets a part: ${outputLines.map((mine) => mine.length)}`);
    outputLines.forEach((mine, i) =>
      assert.deepEqual([...mine].sort((a, b) => a - b), Array.from({ length: 60 }, (_, n) => n + 1).filter((line) => workerOf(`line:${line}`, 3) === i), `worker ${i} takes the lines that hash to ${i}`),
    );
    const union = outputLines.flat().sort((a, b) => a - b);
    assert.deepEqual(union, Array.from({ length: 60 }, (_, i) => i + 1), 'disjoint, and together every line');
    assert.equal((await posted('/v1/content')).length, 60, 'each line sent once');
    workers.forEach((worker, i) => assert.match(worker.stderr, new RegExp(`classified ${outputLines[i]!.length} lines; ${60 - outputLines[i]!.length} lines of other shards \\(--shard ${i}/3\\)`)));
  });

  it('a worker whose shard holds none of the records exits 0 and says they went to the other shards', async () => {
    const items = file('single.jsonl', JSON.stringify({ id: 'only', text: 'x' }) + '\n');
    const workers = await Promise.all([0, 1].map((i) => run(['data', 'add', 'listings', items, '--shard', `${i}/2`])));
    workers.forEach((worker) => assert.equal(worker.code, 0, worker.stderr));
    const idle = workers.find((worker) => /added 0 objects/.test(worker.stderr));
    assert.ok(idle, workers.map((worker) => worker.stderr).join('\n'));
    assert.match(idle.stderr, /added 0 objects to listings in 0 requests; 1 object of other shards \(--shard \d\/2\)/);
    const lines = file('single-line.jsonl', JSON.stringify({ text: 'hello', user_id: 'u1' }) + '\n');
    const classifiers = await Promise.all([0, 1].map((i) => run(['classify', '--batch', lines, '--shard', `${i}/2`])));
    classifiers.forEach((worker) => assert.equal(worker.code, 0, worker.stderr));
    assert.deepEqual(classifiers.map((worker) => ndjson(worker.stdout).length).sort(), [0, 1]);
  });

  // A usage error needs no process of its own: main() runs in this process, thirteen times.
  const usage = (args: string[]) => runInProcess(args, { env: emulator.env });

  it('refuses a bad --shard with exit 2 and the same message on every command, and sends nothing', async () => {
    const events = file('events.jsonl', JSON.stringify({ type: 'create_account', user_id: 'u1', timestamp: '2026-08-11T00:00:00Z' }) + '\n');
    const items = file('one.jsonl', JSON.stringify({ id: 'o1', text: 'x' }) + '\n');
    const commands = [['events', 'send', events], ['data', 'add', 'listings', items], ['classify', '--batch', items, '--user-id', 'u1']];
    for (const bad of ['3/3', '-1/2', 'a/b', '0/0']) {
      for (const command of commands) {
        const result = await usage([...command, '--shard', bad]);
        assert.equal(result.code, 2, `${command.join(' ')} --shard ${bad}: ${result.stderr}`);
        assert.equal(result.stderr, `error: --shard: expected i/n with 0 ≤ i < n (worker i of n workers, counted from 0), e.g. 3/16; got ${bad}\n`, command.join(' '));
      }
    }
    const single = await usage(['classify', '--text', 'hello', '--user-id', 'u1', '--shard', '0/2']);
    assert.equal(single.code, 2);
    assert.equal(single.stderr, 'error: --shard splits the lines of a --batch file between workers: give --batch FILE\n');
    assert.deepEqual((await emulator.requests()).filter((r) => String(r.path).startsWith('/v1/')), []);
  });
});
