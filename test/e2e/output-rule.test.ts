import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { before, describe, it } from 'node:test';
import { eventsText } from '../helpers/events.js';
import { EXAMPLES, spawnCsafe, tempDir, useEmulatorProcess, exitOf } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

/** The README's rule: a pipe gets JSON for one result, NDJSON for a stream; -o tsv and -o table do what they say. */
interface Case {
  args: () => string[];
  shape: 'single' | 'stream';
  /** An example to copy has no table form: a terminal gets it as JSON too. */
  document?: boolean;
}

const parsedLines = (stdout: string) => stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
const widest = (text: string) => Math.max(0, ...text.split('\n').map((line) => [...line].length));

// Its tests read what they print and change nothing another one reads: they run side by side.
describe('one output rule for every command that prints', { concurrency: 6 }, () => {
  // Waits end at their first poll: this file is about what is printed, not how a wait waits (exit-codes.test does).
  const emulator = useEmulatorProcess(['--processing-delay', '0']);
  const dir = tempDir();
  // The runs are in this process: what they write where they run (a failed file by its default name) lands here.
  process.chdir(dir);
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
  // Long ids, so that the tables must cut cells to fit.
  const objects = file('objects.jsonl', [1, 2, 3].map((n) => JSON.stringify({ id: `listing-${n}-${'x'.repeat(70)}`, title: `item ${n}` })).join('\n') + '\n');
  const events = file('events.jsonl', eventsText(4, 2));
  const lines = file('lines.jsonl', '{"text":"hello there"}\n{"text":"I will kill you"}\n');
  const content = '{"text":"see you"}';
  // Placeholders name the tests; before() puts the real ids in.
  const ids = { addRequest: 'ADD_REQUEST', importRequest: 'IMPORT_REQUEST', decision: 'DECISION', import: 'IMPORT', batch: 'BATCH' };
  // One config directory for every run, so the profile `config list` shows is the one set before.
  // In process: what is printed for the arguments is main()'s; the end-to-end runs of each command are in its own e2e file.
  const run = (args: readonly string[], env: Record<string, string> = {}) => runInProcess(args, { env: { ...emulator.env, CSAFE_CONFIG_DIR: join(dir, 'config'), ...env } });
  const json = async (args: string[]) => {
    const result = await run([...args, '--json']);
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };

  before(async () => {
    await json(['config', 'set', 'user_id', 'u1']);
    ids.addRequest = (JSON.parse(await json(['data', 'add', 'listings', objects, '--wait'])) as { request_id: string }[])[0]!.request_id;
    ids.importRequest = (JSON.parse(await json(['data', 'import', 'listings', objects])) as { request_id: string }).request_id;
    ids.decision = (JSON.parse(await json(['decision', 'create', '--type', 'text', '--content', content])) as { decision_id: string }).decision_id;
    ids.import = (JSON.parse(await json(['import', 'create', join(EXAMPLES, 'records.jsonl')])) as { import_id: string }).import_id;
    ids.batch = (JSON.parse(await json(['batch', 'create', '--type', 'text', join(EXAMPLES, 'reviews.csv')])) as { batch_id: string }).batch_id;
  });

  const cases: Case[] = [
    { args: () => ['classify', '--text', 'hello', '--user-id', 'u1'], shape: 'single' },
    { args: () => ['classify', '--batch', lines, '--user-id', 'u1'], shape: 'stream' },
    { args: () => ['token', 'create', '--user-id', 'u1'], shape: 'single' },
    { args: () => ['auth', 'status'], shape: 'single' },
    { args: () => ['config', 'list'], shape: 'single' },
    { args: () => ['settings', 'put', 'listings', '--field', 'photo:image_url'], shape: 'single' },
    { args: () => ['data', 'add', 'listings', objects, '--failed', join(dir, 'failed-add.jsonl')], shape: 'stream' },
    { args: () => ['data', 'add', 'listings', objects, '--wait', '--failed', join(dir, 'failed-add.jsonl')], shape: 'stream' },
    { args: () => ['data', 'import', 'listings', objects], shape: 'single' },
    { args: () => ['data', 'import', 'listings', objects, '--wait'], shape: 'single' },
    { args: () => ['data', 'status', 'listings', ids.addRequest], shape: 'single' },
    { args: () => ['data', 'status', 'listings', ids.importRequest, '--wait'], shape: 'single' },
    { args: () => ['events', 'send', events, '--failed', join(dir, 'failed-events.jsonl')], shape: 'single' },
    { args: () => ['events', 'send', events, '--sync', '--failed', join(dir, 'failed-events.jsonl')], shape: 'stream' },
    { args: () => ['events', 'example', 'create_account'], shape: 'single', document: true },
    { args: () => ['stream', 'watch', 'live', '--id', 'show-1', '--url', 'https://example.com/live/1.m3u8'], shape: 'single' },
    { args: () => ['stream', 'parts', 'live', '--id', 'show-1', join(EXAMPLES, 'parts.jsonl'), '--failed', join(dir, 'failed-parts.jsonl')], shape: 'single' },
    { args: () => ['decision', 'create', '--type', 'text', '--content', content], shape: 'single' },
    { args: () => ['decision', 'create', '--type', 'text', '--content', content, '--wait'], shape: 'single' },
    { args: () => ['decision', 'get', ids.decision, '--wait'], shape: 'single' },
    { args: () => ['import', 'create', join(EXAMPLES, 'records.jsonl'), '--wait'], shape: 'single' },
    { args: () => ['import', 'get', ids.import], shape: 'single' },
    { args: () => ['batch', 'create', '--type', 'text', join(EXAMPLES, 'reviews.csv'), '--wait'], shape: 'single' },
    { args: () => ['batch', 'get', ids.batch, '--wait'], shape: 'single' },
  ];

  for (const { args, shape, document } of cases) {
    it(`csafe ${args().join(' ').replaceAll(dir, 'DIR').replaceAll(EXAMPLES, 'examples/')}: a pipe gets ${shape === 'single' ? 'JSON' : 'NDJSON'}, -o tsv TSV, -o table an aligned table`, async () => {
      const piped = await run(args());
      assert.equal(piped.code, 0, piped.stderr);
      if (shape === 'single') assert.doesNotThrow(() => JSON.parse(piped.stdout), piped.stdout);
      else assert.ok(parsedLines(piped.stdout).length >= 1, piped.stdout);

      const tsv = await run(['-o', 'tsv', ...args()]);
      assert.equal(tsv.code, 0, tsv.stderr);
      const rows = tsv.stdout.replace(/\n$/, '').split('\n').map((line) => line.split('\t'));
      assert.ok(rows.length >= 2 && rows[0]![0] !== '', `a header line and values:\n${tsv.stdout}`);
      for (const row of rows) assert.equal(row.length, rows[0]!.length, tsv.stdout);

      const table = await run(['-o', 'table', ...args()]);
      assert.equal(table.code, 0, table.stderr);
      assert.doesNotMatch(table.stdout, /\t|[│┌─]/, 'aligned with spaces: no TSV, no borders');
      if (!document) assert.doesNotMatch(table.stdout, /^\s*[{[]/, 'not JSON');
    });
  }

  it('data import --wait in a pipe prints what data status prints, so jq .data_count works', async () => {
    const waited = JSON.parse((await run(['data', 'import', 'listings', objects, '--wait'])).stdout) as { request_id: string; data_count: number };
    assert.equal(waited.data_count, 3);
    const status = JSON.parse((await run(['data', 'status', 'listings', waited.request_id])).stdout) as unknown;
    assert.deepEqual(Object.keys(waited).sort(), Object.keys(status as object).sort());
  });

  it('data add --wait prints each request as data status prints it', async () => {
    const [waited] = parsedLines((await run(['data', 'add', 'listings', objects, '--wait'])).stdout) as { request_id: string }[];
    const status = JSON.parse((await run(['data', 'status', 'listings', waited!.request_id])).stdout) as unknown;
    assert.deepEqual(waited, status);
  });

  it('decision create --wait and import create --wait print what decision get and import get print', async () => {
    const decision = JSON.parse((await run(['decision', 'create', '--type', 'text', '--content', content, '--wait'])).stdout) as { decision_id: string };
    assert.deepEqual(decision, JSON.parse((await run(['decision', 'get', decision.decision_id])).stdout));
    const imported = JSON.parse((await run(['import', 'create', join(EXAMPLES, 'records.jsonl'), '--wait'])).stdout) as { import_id: string };
    assert.deepEqual(imported, JSON.parse((await run(['import', 'get', imported.import_id])).stdout));
    const batch = JSON.parse((await run(['batch', 'create', '--type', 'text', join(EXAMPLES, 'reviews.csv'), '--wait'])).stdout) as { batch_id: string };
    assert.deepEqual(Object.keys(batch), Object.keys(JSON.parse((await run(['batch', 'get', batch.batch_id])).stdout) as object));
  });

  describe('a terminal of 120 columns: no line wider, but for a `key: value` line whose value is one word to copy whole', () => {
    const terminal = { CSAFE_FORCE_TTY: '1', COLUMNS: '120', NO_COLOR: '1' };
    for (const args of [
      () => ['data', 'status', 'listings', ids.addRequest],
      () => ['data', 'status', 'listings', ids.importRequest],
      () => ['data', 'import', 'listings', objects, '--wait'],
      () => ['data', 'add', 'listings', objects, '--wait'],
      () => ['classify', '--text', 'I will kill you', '--user-id', 'u1'],
      () => ['classify', '--batch', lines, '--user-id', 'u1'],
    ]) {
      it(`csafe ${args()[0]} ${args()[1]}`, async () => {
        const result = await run(args(), terminal);
        assert.equal(result.code, 0, result.stderr);
        assert.notEqual(result.stdout.trim(), '');
        const wider = result.stdout.split('\n').filter((line) => [...line].length > 120);
        assert.deepEqual(wider.filter((line) => !/^\S+: +\S+$/.test(line)), [], result.stdout);
        assert.doesNotMatch(result.stdout, /(https?:\/\/|req_|imp_|listing-)\S*…/, 'no id or URL cut');
      });
    }

    it('--wide shows the long ids whole', async () => {
      const result = await run(['--wide', 'data', 'status', 'listings', ids.addRequest], terminal);
      assert.match(result.stdout, /listing-1-x{70}/);
      assert.ok(widest(result.stdout) > 120);
    });
  });

  it('at 40 columns, classify is a table of the columns that say something, the match first, no line over 40', async () => {
    const result = await run(['classify', '--text', 'I will kill you', '--user-id', 'u1'], { CSAFE_FORCE_TTY: '1', COLUMNS: '40', NO_COLOR: '1' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^LABEL +DECISION +SCORE\nviolence +match +/);
    assert.ok(widest(result.stdout) <= 40, result.stdout);
  });

  it('emulator start: a pipe gets its ready line as JSON', async () => {
    const child = spawnCsafe(['emulator', 'start', '--port', '0'], { env: emulator.env });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no ready line within 20 s')), 20_000);
        createInterface({ input: child.stdout }).once('line', (text) => (clearTimeout(timer), resolve(text)));
      });
      assert.deepEqual(Object.keys(JSON.parse(line) as object), ['base_url', 'api_key']);
    } finally {
      const exited = exitOf(child);
      child.kill('SIGINT');
      await exited;
    }
  });
});
