import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir, useEmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

// Strings the service sends back (ids, content, messages) may hold terminal controls: ESC and CSI
// sequences, an OSC title, a C1 CSI, a CR that rewinds the line, a backspace. Through the
// emulator, each view shows them inert on a terminal (caret notation, \u009b), and JSON and files
// keep them byte for byte.

/** What a hostile service (or a hostile user whose input it echoes) puts in a string. */
const HOSTILE = 'A\u001b[31mRED\u001b]0;title\u0007\u009b2J\rCR\bBS';
/** Any control a terminal acts on, but the line feed and tab every output has. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const INERT = 'A^[[31mRED^[]0;title^G\\u009b2J^MCR^HBS';

describe('server strings on a terminal', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);
  const dir = tempDir();
  // A terminal without colour or spinner (the buffers here draw none): every control left in the output would be one csafe let through.
  const onTerminal = (args: string[]) => runInProcess(['--quiet', ...args], { env: { ...emulator.env, NO_COLOR: '1' }, isTTY: true, columns: 400 });
  const inPipe = (args: string[]) => runInProcess(args, { env: emulator.env });

  const assertInert = (text: string, what: string) => {
    assert.doesNotMatch(text, RAW_CONTROL, what);
    assert.ok(text.includes(INERT), `${what} shows the string in caret notation:\n${text}`);
  };

  it('an error quoting what the service said (a 404 naming the id asked for)', async () => {
    const result = await onTerminal(['decision', 'get', `dec_${HOSTILE}`]);
    assert.equal(result.code, 1);
    assertInert(result.stderr, 'the error line');
  });

  it('a table of entries (data status), and the same record byte for byte in JSON', async () => {
    const file = join(dir, 'hostile.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: HOSTILE, title: 't' })}\n`);
    const added = JSON.parse((await inPipe(['data', 'add', 'safety', file, '--json'])).stdout) as Array<{ request_id: string }>;
    const requestId = added[0]!.request_id;
    const table = await onTerminal(['data', 'status', 'safety', requestId, '--wait', '-o', 'table']);
    assert.equal(table.code, 0, table.stderr);
    assertInert(table.stdout, 'the table');
    const json = await onTerminal(['data', 'status', 'safety', requestId, '--json']);
    assert.doesNotMatch(json.stdout, RAW_CONTROL);
    assert.equal(JSON.stringify(JSON.parse(json.stdout)).includes(JSON.stringify(HOSTILE)), true, 'JSON on a terminal carries the exact string');
  });

  it('a record as key: value lines (decision get, its metadata as JSON text), and the same record byte for byte in JSON', async () => {
    const created = await inPipe(['decision', 'create', '--type', 'text', '--content', '{"text":"hi"}', '--metadata', `source=${HOSTILE}`, '--wait', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const id = (JSON.parse(created.stdout) as { decision_id: string }).decision_id;
    const shown = await onTerminal(['decision', 'get', id, '-o', 'table']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^metadata: +\{"source":"A/m);
    assert.doesNotMatch(shown.stdout, RAW_CONTROL, 'the key: value view');
    const json = await inPipe(['decision', 'get', id, '--json']);
    assert.equal((JSON.parse(json.stdout) as { metadata: { source: string } }).metadata.source, HOSTILE, 'JSON keeps the string exactly');
  });

  it('a CSV streamed to a terminal is inert, the same CSV to a file is byte for byte', async () => {
    const csv = join(dir, 'hostile.csv');
    writeFileSync(csv, `Content,Ref\n"${HOSTILE}",r1\n`);
    const created = await inPipe(['batch', 'create', '--type', 'text', csv, '--wait', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const id = (JSON.parse(created.stdout) as { batch_id: string }).batch_id;
    const shown = await onTerminal(['batch', 'download', id]);
    assert.equal(shown.code, 0, shown.stderr);
    assertInert(shown.stdout, 'the CSV on a terminal');
    const saved = join(dir, 'results.csv');
    assert.equal((await inPipe(['batch', 'download', id, saved])).code, 0);
    assert.ok(readFileSync(saved, 'utf8').includes(HOSTILE), 'the file keeps the content as it was');
  });

  it('webhooks listen shows what a notification is about inert on a terminal, and byte for byte in a pipe', async () => {
    const shown = await listenTo(HOSTILE, { isTTY: true });
    assertInert(shown, 'the notification on a terminal');
    const piped = await listenTo(HOSTILE, { isTTY: false });
    assert.equal((JSON.parse(piped.trim()) as { about: string }).about, `listings/${HOSTILE}`, 'the NDJSON line carries the exact string');
  });

  /** What `webhooks listen` printed of one notification about `id`, stopped (as by Ctrl-C) once it was delivered. */
  async function listenTo(id: string, { isTTY }: { isTTY: boolean }): Promise<string> {
    await emulator.control('/_emulator/reset', { method: 'POST' });
    const stop = new AbortController();
    const run = runInProcess(['--quiet', 'webhooks', 'listen'], { env: { ...emulator.env, NO_COLOR: '1' }, isTTY, columns: 400, signal: stop.signal });
    await waitFor(async () => ((await emulator.control('/_emulator/webhooks/endpoints')) as { endpoints: unknown[] }).endpoints.length === 1, { what: 'the listener to register' });
    await emulator.control('/_emulator/webhooks/trigger', { method: 'POST', body: { type: 'workflow.failed', id } });
    await waitFor(async () => ((await emulator.control('/_emulator/webhooks')) as { deliveries: Array<{ state: string }> }).deliveries.some((delivery) => delivery.state === 'delivered'), { what: 'the notification to be delivered' });
    stop.abort('SIGINT');
    const result = await run;
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  }
});

describe('pre-signed links on a terminal', () => {
  const emulator = useEmulatorProcess(['--processing-delay', '0']);
  const dir = tempDir();
  const onTerminal = (args: string[]) => runInProcess(['--quiet', ...args], { env: { ...emulator.env, NO_COLOR: '1' }, isTTY: true, columns: 400 });
  const SIGNATURE = /X-Csafe-Signature=([^&\s"]+)/;

  it('batch get and data status show each link with its signature redacted; --json and -o tsv keep it whole, for scripts', async () => {
    const csv = join(dir, 'reviews.csv');
    writeFileSync(csv, 'Content\ngreat bike\n');
    const created = await runInProcess(['batch', 'create', '--type', 'text', csv, '--wait', '--json'], { env: emulator.env });
    const id = (JSON.parse(created.stdout) as { batch_id: string }).batch_id;
    const shown = await onTerminal(['batch', 'get', id]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(SIGNATURE.exec(shown.stdout)?.[1], '[REDACTED]', shown.stdout);
    for (const format of [['--json'], ['-o', 'tsv']]) {
      const whole = await onTerminal(['batch', 'get', id, ...format]);
      assert.match(SIGNATURE.exec(whole.stdout)?.[1] ?? '', /^[0-9a-f]{64}$/, `${format.join(' ')} keeps the signature`);
    }

    const objects = join(dir, 'objects.jsonl');
    writeFileSync(objects, '{"id":"o1","title":"bike"}\n');
    const added = JSON.parse((await runInProcess(['data', 'add', 'signed', objects, '--json'], { env: emulator.env })).stdout) as Array<{ request_id: string }>;
    const table = await onTerminal(['data', 'status', 'signed', added[0]!.request_id, '--wait']);
    assert.equal(table.code, 0, table.stderr);
    assert.ok(table.stdout.includes('X-Csafe-Signature=[REDACTED]'), table.stdout);
    assert.doesNotMatch(table.stdout, /X-Csafe-Signature=[0-9a-f]{16}/);
  });
});
