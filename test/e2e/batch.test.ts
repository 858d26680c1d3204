import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { BIN, EXAMPLES, ended, hasScript, outcome, runCsafe, spawnCsafe, startEmulatorProcess, tempDir, type EmulatorProcess, exitOf } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

type LogEntry = Record<string, unknown> & { method: string; path: string; status: number };

const REVIEWS = join(EXAMPLES, 'reviews.csv');
/** Every form of field the checker must accept: a quoted comma, doubled quotes, a quoted line break, a byte order mark, CRLF. */
const TRICKY = '\ufeffContent,source\r\n"a, b",app\r\n"say ""hi""",web\r\n"two\r\nlines",app\r\n';
const csvRows = (text: string) => parse(text, { bom: true, columns: true }) as Array<Record<string, string>>;
const batchId = (text: string) => /"batch_id":\s*"([^"]+)"/.exec(text)?.[1];

// Most runs go through main() in this process: what they check needs no process of its own. A
// terminal, Ctrl-C, a reader of stdout that goes away and FIFOs are checked on bin/csafe itself.
describe('csafe batch', () => {
  let emulator: EmulatorProcess;
  /** Batches that stay PENDING for a minute: for cancel, the wait timeout and Ctrl-C. */
  let slow: EmulatorProcess;
  const dir = tempDir();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const run = (args: string[], options: { input?: string; on?: EmulatorProcess } = {}) =>
    runInProcess(args, { env: (options.on ?? emulator).env, input: options.input, cwd: dir });
  const runAlone = (args: string[]) => runCsafe(args, { env: emulator.env, cwd: dir });
  const log = async (on = emulator) => (await on.requests()) as LogEntry[];
  const batchRequests = async () => (await log()).filter((entry) => entry.path.startsWith('/v1/batches'));

  before(async () => {
    [emulator, slow] = await Promise.all([startEmulatorProcess(['--processing-delay', '100ms']), startEmulatorProcess(['--processing-delay', '60s'])]);
  });
  after(async () => {
    await Promise.all([emulator?.stop(), slow?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('batch get refuses an empty id before sending anything (exit 2), as import get does', async () => {
    const before = (await batchRequests()).length;
    const result = await run(['batch', 'get', '']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /<batch-id> is empty.*csafe batch create/s);
    assert.equal((await batchRequests()).length, before);
  });

  it('batch create --wait --download: uploads the CSV as text/csv, waits for SUCCESS, writes the result CSV', async () => {
    copyFileSync(REVIEWS, join(dir, 'reviews.csv'));
    // The line as written, in a directory holding reviews.csv.
    const result = await run(['batch', 'create', '--type', 'text', 'reviews.csv', '--wait', '--download', 'results.csv', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const batch = JSON.parse(result.stdout);
    assert.equal(batch.batch_status, 'SUCCESS');
    assert.equal(batch.batch_count, 3);
    assert.equal(batch.success_count + batch.error_count, 3);
    assert.match(result.stderr, /uploaded .* \(3 rows\) .* as batch /);

    const put = (await log()).find((entry) => entry.method === 'PUT')!;
    assert.equal(put.content_type, 'text/csv');
    assert.equal(put.content_length, readFileSync(REVIEWS).length);
    assert.equal(put.auth, 'missing', 'no Authorization header reached the upload address');

    const results = csvRows(readFileSync(join(dir, 'results.csv'), 'utf8'));
    assert.deepEqual(Object.keys(results[0]!), ['Content', 'Status', 'Service result', 'Expected result', 'Labels', 'source', 'rating']);
    assert.deepEqual(results.map((row) => [row.Content, row.source, row.rating]), csvRows(readFileSync(REVIEWS, 'utf8')).map((row) => [row.Content, row.source, row.rating]));
  });

  it('batch create --wait --download FILE that cannot be written: the hint fetches the result with batch download, not the same command, which would send another batch', async () => {
    copyFileSync(REVIEWS, join(dir, 'reviews.csv'));
    const result = await run(['batch', 'create', '--type', 'text', 'reviews.csv', '--wait', '--download', '/dev/full', '--json']);
    assert.equal(result.code, 2, result.stderr);
    const id = JSON.parse(result.stdout).batch_id as string;
    assert.match(result.stderr, new RegExp(`^error: /dev/full: could not write: no space left on device \\(ENOSPC\\)\nhint: make room or give another path, then fetch it with: csafe batch download ${id} /dev/full\n$`, 'm'));
    const batches = (await batchRequests()).filter((entry) => entry.method === 'POST').length;
    const fetched = await run(['batch', 'download', id, 'fetched.csv']);
    assert.equal(fetched.code, 0, fetched.stderr);
    assert.equal(csvRows(readFileSync(join(dir, 'fetched.csv'), 'utf8')).length, 3);
    assert.equal((await batchRequests()).filter((entry) => entry.method === 'POST').length, batches, 'no batch sent again');
  });

  it('batch get shows the status and the five counts; batch download streams the same CSV to stdout or a FILE, and its rows as NDJSON (-o ndjson) or one array (--json)', async () => {
    const created = await run(['batch', 'create', '--type', 'text', file('tricky.csv', TRICKY), '--wait', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const id = batchId(created.stdout)!;

    const table = await run(['-o', 'table', 'batch', 'get', id]);
    assert.equal(table.code, 0, table.stderr);
    for (const field of ['batch_status: +SUCCESS', 'batch_count: +3', 'success_count', 'pending_count', 'error_count', 'cancelled_count']) assert.match(table.stdout, new RegExp(field));

    const csv = await run(['batch', 'download', id]);
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal((await run(['batch', 'download', id, '-'])).stdout, csv.stdout, '- is stdout');
    const toFile = await run(['batch', 'download', id, 'results.csv']);
    assert.equal(toFile.code, 0, toFile.stderr);
    assert.equal(readFileSync(join(dir, 'results.csv'), 'utf8'), csv.stdout);
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), [], 'no temporary file left');

    const ndjson = await run(['batch', 'download', id, '-o', 'ndjson']);
    assert.equal(ndjson.code, 0, ndjson.stderr);
    const objects = ndjson.stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(objects, csvRows(csv.stdout), 'the same rows, the same cells');
    assert.deepEqual(objects.map((row) => row.Content), ['a, b', 'say "hi"', 'two\r\nlines']);
    // --json is one JSON document, as for every command: the rows as one array.
    const json = await run(['batch', 'download', id, '--json']);
    assert.equal(json.stdout, JSON.stringify(objects, null, 2) + '\n');
    assert.equal((await run(['batch', 'download', id, '-o', 'json'])).stdout, json.stdout, '-o json after the command is the format');
    assert.equal((await run(['-o', 'ndjson', 'batch', 'download', id, 'rows.jsonl'])).code, 0);
    assert.equal(readFileSync(join(dir, 'rows.jsonl'), 'utf8'), ndjson.stdout, 'NDJSON to a file');
    for (const format of ['tsv', 'table']) {
      const refused = await run(['batch', 'download', id, '-o', format]);
      assert.equal(refused.code, 2, `-o ${format} is not silently ignored`);
      assert.match(refused.stderr, new RegExp(`batch download: -o ${format}: .*CSV.*-o ndjson`));
    }
  });

  it('reads the CSV from stdin (-)', async () => {
    const result = await run(['batch', 'create', '--type', 'text', '-', '--json'], { input: TRICKY });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).rows, 3);
    assert.match(result.stderr, /csafe batch get \S+ --wait/);
  });

  it('a CSV with mixed line ends (CRLF, LF, a lone CR) is sent whole: the batch counts the rows the check counted', async () => {
    const mixed = file('mixed.csv', 'Content,source\r\nfirst,app\nsecond,web\rthird,app\r\n"quoted\rbreak",web\n');
    const result = await run(['batch', 'create', '--type', 'text', mixed, '--wait', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const batch = JSON.parse(result.stdout);
    assert.match(result.stderr, /\(4 rows\)/);
    assert.deepEqual([batch.batch_status, batch.batch_count, batch.success_count], ['SUCCESS', 4, 4]);
  });

  const refused: Array<[string, string, RegExp]> = [
    ['a missing Content column', 'content,source\nhello,app\n', /error: bad\.csv:1: no "Content" column \(matched exactly\); the header has "content", "source"\nhint: rename the column "content" to "Content": the name must match exactly, case included\n/],
    ['a ragged row', 'Content,source\n"two\nlines",app\nshort\n', /bad\.csv:4: has 1 field, the header has 2/],
    ['an empty Content cell', '\ufeffContent,source\r\nok,app\r\n,web\r\n', /bad\.csv:3: Content: is empty, expected the text or URL to review/],
    ['an unclosed quote', 'Content\nok\n"never closed\n', /error: bad\.csv:3: a quoted field starts on this line and is never closed/],
  ];
  for (const [what, text, message] of refused) {
    it(`refuses a CSV with ${what}, naming its line, exit 2, nothing sent`, async () => {
      const before = (await batchRequests()).length;
      file('bad.csv', text);
      const result = await run(['batch', 'create', '--type', 'text', 'bad.csv']);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.equal((await batchRequests()).length, before, 'no batch was created');
    });
  }

  it('batch get --wait exits 1 on ERROR (a CSV the service cannot read, uploaded by hand)', async () => {
    const response = await fetch(`${emulator.baseUrl}/v1/batches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'text' }),
    });
    const created = (await response.json()) as { batch_id: string; upload_url: string };
    const put = await fetch(created.upload_url, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: 'no content column here\n"unclosed\n' });
    assert.equal(put.status, 200);
    const result = await run(['batch', 'get', created.batch_id, '--wait', '--json']);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(JSON.parse(result.stdout).batch_status, 'ERROR');
    assert.match(result.stderr, new RegExp(`batch ${created.batch_id} ended ERROR`));
  });

  it('batch get --wait exits 1 on CANCELLED (the emulator control route)', async () => {
    const created = await run(['batch', 'create', '--type', 'text', REVIEWS, '--json'], { on: slow });
    assert.equal(created.code, 0, created.stderr);
    const id = batchId(created.stdout)!;
    await slow.control(`/_emulator/batches/${id}/cancel`, { method: 'POST' });
    const result = await run(['batch', 'get', id, '--wait', '--json'], { on: slow });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(JSON.parse(result.stdout).batch_status, 'CANCELLED');
    const download = await run(['batch', 'download', id], { on: slow });
    assert.equal(download.code, 1);
    assert.match(download.stderr, /has no result to download \(batch_status CANCELLED\)/);
  });

  it('--wait --timeout exits 124 and Ctrl-C 130, each printing the pending batch and how to check on it', async () => {
    const created = await run(['batch', 'create', '--type', 'text', REVIEWS, '--json'], { on: slow });
    const id = batchId(created.stdout)!;
    const timedOut = await run(['batch', 'get', id, '--wait', '--timeout', '1s'], { on: slow });
    assert.equal(timedOut.code, 124, timedOut.stderr);
    assert.match(timedOut.stderr, new RegExp(`csafe batch get ${id} --wait`));

    const child = spawnCsafe(['batch', 'get', id, '--wait', '--download', 'later.csv'], { env: slow.env, cwd: dir });
    const ended = outcome(child);
    const polls = async () => (await log(slow)).filter((entry) => entry.method === 'GET' && entry.path === `/v1/batches/${id}`).length;
    const seen = await polls();
    await waitFor(async () => (await polls()) > seen, { what: 'the first poll of the batch' });
    child.kill('SIGINT');
    const interrupted = await ended;
    assert.equal(interrupted.code, 130, interrupted.stderr);
    assert.match(interrupted.stderr, new RegExp(`batch ${id} is still pending; check on it with:\\n  csafe batch get ${id} --wait --download later.csv`));
  });

  it('an expired upload address is replaced by a new batch, the old id reported', async () => {
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { expired_upload_urls: 1 } });
    const before = (await batchRequests()).filter((entry) => entry.method === 'POST').length;
    const result = await run(['batch', 'create', '--type', 'text', REVIEWS, '--wait', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /the upload address of bat_\S+ expired during the upload; requesting another/);
    assert.equal((await batchRequests()).filter((entry) => entry.method === 'POST').length, before + 2);
    assert.equal(JSON.parse(result.stdout).batch_status, 'SUCCESS');
  });

  it('an expired download address is replaced by looking the batch up again', async () => {
    const created = await run(['batch', 'create', '--type', 'text', REVIEWS, '--wait', '--json']);
    const id = batchId(created.stdout)!;
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { expired_download_urls: 1 } });
    const result = await run(['batch', 'download', id]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`the download address of ${id} has expired; looking the batch up again`));
    assert.equal(csvRows(result.stdout).length, 3);
  });

  it('a download address that keeps expiring ends in exit 1 with what to do, not in exit 3 (the key is fine)', async () => {
    const created = await run(['batch', 'create', '--type', 'text', REVIEWS, '--wait', '--json']);
    const id = batchId(created.stdout)!;
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { expired_download_urls: 3 } });
    const result = await run(['batch', 'download', id]);
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stderr.trimEnd().split('\n').filter((line) => !line.startsWith('the download address'));
    assert.match(lines[0]!, new RegExp(`^error: the download address of ${id} expired 3 times \\(last: .*Request has expired\\)`));
    assert.match(lines[1]!, new RegExp(`^hint: .*clock.*csafe batch download ${id}`));
    assert.doesNotMatch(result.stderr, /Signature=(?!\[REDACTED\])/);
  });

  it('batch download into a FIFO streams to its reader and leaves it a FIFO; through a symbolic link it replaces the file named', async () => {
    const created = await run(['batch', 'create', '--type', 'text', REVIEWS, '--wait', '--json']);
    const id = batchId(created.stdout)!;
    const csv = (await run(['batch', 'download', id])).stdout;
    const fifo = join(dir, 'results.fifo');
    execFileSync('mkfifo', [fifo]);
    // cat, not this process, waits on the FIFO: if csafe renamed a file over it, the test kills cat instead of hanging.
    const reader = spawn('cat', [fifo]);
    try {
      const read = ended(reader);
      const result = await runAlone(['batch', 'download', id, fifo]);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(lstatSync(fifo).isFIFO(), 'still a FIFO');
      assert.equal((await read).stdout, csv);
    } finally {
      reader.kill();
    }
    writeFileSync(join(dir, 'named.csv'), 'old');
    symlinkSync('named.csv', join(dir, 'link.csv'));
    assert.equal((await run(['batch', 'download', id, 'link.csv'])).code, 0);
    assert.ok(lstatSync(join(dir, 'link.csv')).isSymbolicLink(), 'still a link');
    assert.equal(readFileSync(join(dir, 'named.csv'), 'utf8'), csv);
  });

  it('batch download to a FILE that cannot be written (a directory, a link to nothing, a missing folder) is one error line and its hint, exit 2, no crash', async () => {
    const created = await run(['batch', 'create', '--type', 'text', REVIEWS, '--wait', '--json']);
    const id = batchId(created.stdout)!;
    mkdirSync(join(dir, 'a-folder'));
    symlinkSync('nothing-here.csv', join(dir, 'dangling.csv'));
    const expected: Array<[string, RegExp]> = [
      ['a-folder', /^error: a-folder: could not write: is a directory \(EISDIR\)\nhint: [^\n]+\n$/],
      ['dangling.csv', /^error: dangling\.csv: could not write: is a symbolic link to nothing-here\.csv, which does not exist\nhint: [^\n]+\n$/],
      [join('no-folder', 'out.csv'), /^error: no-folder\/out\.csv: could not write: no such directory \(ENOENT\)\nhint: [^\n]+\n$/],
    ];
    for (const [target, message] of expected) {
      const result = await run(['batch', 'download', id, target]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
    }
  });

  describe('batch download of cells that could harm a terminal or a spreadsheet', () => {
    // An OSC 52 that would write the clipboard, a clear screen, a C1 CSI; formulas quoted and not.
    const HOSTILE = 'Content,note\n"\u001b]52;c;aGk=\u0007 clip \u001b[2J","=HYPERLINK(""http://x"")"\ncsi \u009b31m red,@sum\nplain,-1\n';
    let id: string;
    before(async () => {
      const created = await run(['batch', 'create', '--type', 'text', file('hostile.csv', HOSTILE), '--wait', '--json']);
      assert.equal(created.code, 0, created.stderr);
      id = batchId(created.stdout)!;
    });
    const onTerminal = (args: string[]) => runCsafe(args, { env: { ...emulator.env, CSAFE_FORCE_TTY: '1' }, cwd: dir });

    it('in a pipe the CSV is byte for byte what the service stores, with no warning', async () => {
      const piped = await run(['batch', 'download', id]);
      assert.equal(piped.code, 0, piped.stderr);
      assert.match(piped.stdout, /\u001b\]52;c;aGk=\u0007 clip \u001b\[2J/);
      assert.match(piped.stdout, /csi \u009b31m red/);
      assert.equal(piped.stderr, '');
    });

    it('on a terminal control characters are shown in caret notation, and the formula cells counted in one warning', async () => {
      const shown = await onTerminal(['batch', 'download', id]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.doesNotMatch(shown.stdout, /[\u001b\u0007\u0080-\u009f]/);
      assert.match(shown.stdout, /\^\[\]52;c;aGk=\^G clip \^\[\[2J/);
      assert.match(shown.stdout, /csi \\u009b31m red/);
      assert.equal(shown.stderr, `warning: 3 cells of the result start with =, +, - or @, which a spreadsheet may run as a formula; to write them with a leading ': csafe batch download ${id} --escape-formulas\n`);
    });

    it('--json on a terminal escapes C1 controls as JSON does C0 ones, and the rows stay the same', async () => {
      const [shown, piped] = await Promise.all([onTerminal(['batch', 'download', id, '--json']), run(['batch', 'download', id, '--json'])]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.doesNotMatch(shown.stdout, /[\u001b\u0080-\u009f]/);
      assert.match(shown.stdout, /csi \\u009b31m red/);
      assert.deepEqual(JSON.parse(shown.stdout), JSON.parse(piped.stdout));
    });

    // `script` gives csafe a real terminal: FILE is one only when it is a device that is a terminal.
    it('batch download ID /dev/stdout on a terminal is shown as stdout is: caret notation, C1 escaped, in CSV and in JSON rows', { skip: !hasScript && 'no script(1)' }, async () => {
      const onPty = (args: string[]) =>
        new Promise<string>((resolve, reject) => {
          const child = spawn('script', ['-qec', [BIN, ...args].map((word) => `'${word}'`).join(' '), '/dev/null'], { cwd: dir, env: { ...process.env, ...emulator.env } });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
          child.on('error', reject);
          exitOf(child).then(() => resolve(output), reject);
        });
      for (const format of [[], ['--json']]) {
        const shown = await onPty(['batch', 'download', id, '/dev/stdout', ...format]);
        assert.doesNotMatch(shown, /[\u001b\u0007\u0080-\u009f]/, `raw controls with ${format.join(' ') || 'CSV'}`);
        assert.match(shown, /csi \\u009b31m red/);
      }
    });

    it("--escape-formulas writes each formula cell with a leading ', quoted or not; with --json it is refused", async () => {
      const escaped = await run(['batch', 'download', id, 'escaped.csv', '--escape-formulas']);
      assert.equal(escaped.code, 0, escaped.stderr);
      const rows = csvRows(readFileSync(join(dir, 'escaped.csv'), 'utf8'));
      assert.deepEqual(rows.map((row) => row.note), ['\'=HYPERLINK("http://x")', "'@sum", "'-1"]);
      assert.deepEqual(rows.map((row) => row.Content), csvRows(HOSTILE).map((row) => row.Content));
      const refused = await run(['batch', 'download', id, '--json', '--escape-formulas']);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /^error: --escape-formulas: .*JSON/);
    });
  });

  it('batch download | head -1: a reader of stdout that goes away ends the download quietly, exit 0', async () => {
    // A result far larger than a pipe holds, so csafe is still writing when the reader leaves.
    const rows = Array.from({ length: 100 }, (_, i) => `review ${i} ${'x'.repeat(6000)}`);
    const created = await run(['batch', 'create', '--type', 'text', file('long.csv', `Content\n${rows.join('\n')}\n`), '--wait', '--json']);
    const child = spawnCsafe(['batch', 'download', batchId(created.stdout)!], { env: emulator.env, cwd: dir });
    child.stdout.once('data', () => child.stdout.destroy());
    const result = await outcome(child);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
  });

  it('batch download ID /dev/stdout | head -1 (and -o ndjson): the reader that went away is done, exit 0, no message', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => `review ${i} ${'x'.repeat(6000)}`);
    const created = await run(['batch', 'create', '--type', 'text', file('long-file.csv', `Content\n${rows.join('\n')}\n`), '--wait', '--json']);
    for (const format of [[], ['-o', 'ndjson']]) {
      // A shell's pipe: a child's stdout from node is a socket, which /dev/stdout cannot open.
      const script = '{ "$0" "$@" 2>head.err; echo $? >head.code; } | head -c 10 >/dev/null';
      await ended(spawn('sh', ['-c', script, BIN, 'batch', 'download', batchId(created.stdout)!, '/dev/stdout', ...format], { cwd: dir, env: { ...process.env, ...emulator.env } }));
      const stderr = readFileSync(join(dir, 'head.err'), 'utf8');
      assert.equal(readFileSync(join(dir, 'head.code'), 'utf8'), '0\n', stderr);
      assert.equal(stderr, '');
    }
  });

  it('-o before the command is the output format too', async () => {
    const result = await run(['-o', 'json', 'batch', 'get', 'bat_missing']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /404/);
    const bad = await run(['-o', 'yaml', 'batch', 'get', 'bat_missing']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--output: expected one of table, json, ndjson, tsv, got "yaml"/);
  });
});
