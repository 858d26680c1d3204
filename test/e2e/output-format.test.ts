import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { eventsText } from '../helpers/events.js';
import { runCsafe, spawnCsafe, tempDir, useEmulatorProcess, withEmulatorProcess, exitOf } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

/** The shape of a JSON document: every leaf replaced by its type, so two runs with different ids and timings compare equal. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]));
  return value === null ? 'null' : typeof value;
}

const jsonShape = (stdout: string) => {
  assert.notEqual(stdout.trim(), '', 'something on stdout');
  return shapeOf(JSON.parse(stdout));
};

/** The first line a long-running command prints, with a deadline; the child is stopped however it ends. */
async function firstLine(args: string[]): Promise<string> {
  const child = spawnCsafe(args);
  try {
    const lines = createInterface({ input: child.stdout });
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line from csafe ${args.join(' ')} within 20 s`)), 20_000);
      lines.once('line', (line) => (clearTimeout(timer), resolve(line)));
      child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`csafe ${args.join(' ')} exited with ${code} before printing`))));
    });
  } finally {
    const exited = exitOf(child);
    child.kill('SIGINT');
    await exited;
  }
}

describe('-o json and --json print the same for every command that prints', { concurrency: 4 }, () => {
  const emulator = useEmulatorProcess();
  const dir = tempDir();
  const events = join(dir, 'events.jsonl');
  const objects = join(dir, 'objects.jsonl');
  writeFileSync(events, eventsText(6, 3));
  writeFileSync(objects, '{"id":"a","title":"one"}\n{"id":"b","title":"two"}\n');
  const items = join(dir, 'items.jsonl');
  writeFileSync(items, '{"content":[{"type":"text","text":"one"}]}\n{"content":[{"type":"text","text":"two"}]}\n');
  const texts = ['a.txt', 'b.txt'].map((name) => join(dir, name));
  for (const text of texts) writeFileSync(text, 'hello\n');
  // Streams too: --json is one JSON document (an array), never one line per item; that is -o ndjson.
  const commands: string[][] = [
    ['classify', '--batch', items, '--user-id', 'u1', '--failed', join(dir, 'failed-classify.jsonl')],
    ['classify', '--each', ...texts, '--user-id', 'u1'],
    ['events', 'send', events, '--sync', '--failed', join(dir, 'failed-sync.jsonl')],
    ['classify', '--text', 'hello', '--user-id', 'u1'],
    ['token', 'create', '--user-id', 'u1'],
    ['auth', 'status'],
    ['config', 'list'],
    ['events', 'example', 'create_account'],
    ['events', 'send', events, '--dry-run'],
    ['events', 'send', events, '--failed', join(dir, 'failed.jsonl')],
    ['data', 'add', 'listings', objects, '--failed', join(dir, 'failed-data.jsonl')],
    ['data', 'import', 'listings', objects],
    ['settings', 'put', 'listings', '--field', 'photo:image_url'],
  ];
  for (const command of commands) {
    it(`csafe ${command.join(' ')}`, async () => {
      // In process: which format the flags choose is main()'s; every path here is absolute.
      const run = (format: string[]) => runInProcess([...format, ...command], { env: emulator.env });
      const [byOutput, byJson] = await Promise.all([run(['-o', 'json']), run(['--json'])]);
      assert.equal(byOutput.code, byJson.code, byOutput.stderr);
      assert.deepEqual(jsonShape(byOutput.stdout), jsonShape(byJson.stdout));
    });
  }

  it('csafe emulator start', async () => {
    const [byOutput, byJson] = [await firstLine(['-o', 'json', 'emulator', 'start', '--port', '0']), await firstLine(['--json', 'emulator', 'start', '--port', '0'])];
    assert.deepEqual(jsonShape(byOutput), { base_url: 'string', api_key: 'string' });
    assert.deepEqual(jsonShape(byOutput), jsonShape(byJson));
  });
});

describe('events send stops on a Retry-After longer than --max-wait', () => {
  it('sends no batch after the first such answer, and says how long to wait', async () => {
    await withEmulatorProcess(['--fault-rate', '1', '--faults', '429'], async (emulator) => {
      const dir = tempDir();
      const file = join(dir, 'events.jsonl');
      // One user per event, so no event is held back only because an earlier event of its user failed.
      writeFileSync(file, eventsText(5, 5));
      const failed = join(dir, 'failed.jsonl');
      const result = await runCsafe(['--max-wait', '0s', 'events', 'send', file, '--batch-size', '1', '--concurrency', '1', '--failed', failed], { env: emulator.env, cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /^stopped: service answered 429 and asked to wait [12] s.*; what was not sent is in /m);
      const attempts = (await emulator.requests()).filter((r) => r.path === '/v1/async/events').length;
      assert.equal(attempts, 1, result.stderr);
    });
  });
});
