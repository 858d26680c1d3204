import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ended, runCsafe, spawnCsafe, startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { runInProcess } from '../helpers/in-process.js';

// `csafe data download`: a succeeded import's output, streamed from its data_url as `batch download` streams a batch's result.

const hasSetpriv = spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;

describe('csafe data download', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const run = (args: string[]) => runInProcess(args, { env: emulator.env, cwd: dir });
  const OBJECTS = ['{"id":"a","title":"bike"}', '{"id":"b","title":"csi \\u009b31m red"}', '{"id":"c","title":"car"}'];
  let requestId: string;

  before(async () => {
    emulator = await startEmulatorProcess(['--processing-delay', '0']);
    writeFileSync(join(dir, 'objects.jsonl'), OBJECTS.join('\n') + '\n');
    const imported = await run(['data', 'import', 'listings', 'objects.jsonl', '--wait', '--json']);
    assert.equal(imported.code, 0, imported.stderr);
    requestId = JSON.parse(imported.stdout).request_id;
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const outputLog = async () => (await emulator.requests()).filter((entry) => String(entry.path).startsWith('/_storage/outputs/'));

  it('streams the output byte for byte to stdout or a FILE, without the key; -o ndjson and --json give the same objects', async () => {
    const raw = await run(['data', 'download', 'listings', requestId]);
    assert.equal(raw.code, 0, raw.stderr);
    const objects = raw.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(objects.map((object) => object.id), ['a', 'b', 'c']);
    assert.ok(objects.every((object) => Array.isArray(object.output.labels) && typeof object.url === 'string'), raw.stdout);

    const toFile = await run(['data', 'download', 'listings', requestId, 'out.jsonl']);
    assert.equal(toFile.code, 0, toFile.stderr);
    assert.equal(toFile.stdout, '');
    assert.equal(readFileSync(join(dir, 'out.jsonl'), 'utf8'), raw.stdout);
    assert.match(toFile.stderr, /wrote the output of the request to out\.jsonl/);
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), [], 'no temporary file left');

    const ndjson = await run(['data', 'download', 'listings', requestId, '-o', 'ndjson']);
    assert.deepEqual(ndjson.stdout.trimEnd().split('\n').map((line) => JSON.parse(line)), objects);
    const json = await run(['data', 'download', 'listings', requestId, '--json']);
    assert.equal(json.stdout, JSON.stringify(objects, null, 2) + '\n');

    const fetched = await outputLog();
    assert.ok(fetched.length >= 4, JSON.stringify(fetched));
    assert.deepEqual(new Set(fetched.map((entry) => entry.auth)), new Set(['missing']), 'no Authorization to the pre-signed address');
  });

  it('a FILE that is a named pipe nothing reads: it says it waits, and the first Ctrl-C ends the wait (130), the pipe left a pipe', async (t) => {
    const pipe = join(dir, 'unread.fifo');
    execFileSync('mkfifo', [pipe]);
    const child = spawnCsafe(['data', 'download', 'listings', requestId, 'unread.fifo'], { env: emulator.env, cwd: dir });
    t.after(() => child.exitCode === null && child.kill('SIGKILL'));
    const result = ended(child, { timeoutMs: 15_000 });
    child.stdin.end();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    await waitFor(() => stderr.includes('waiting for something to read unread.fifo (a named pipe)'), { what: 'the wait to be told' });
    child.kill('SIGINT');
    assert.equal((await result).code, 130);
    assert.ok(lstatSync(pipe).isFIFO());
  });

  it('a FILE the disk stops taking part-way: one line in words naming the FILE (not its temporary), exit 2, the FILE left as it was', async () => {
    writeFileSync(join(dir, 'kept.jsonl'), 'before\n');
    // A file-size limit makes the kernel take what fits, then refuse the rest, as a full disk does.
    const cut = await runCsafe(['data', 'download', 'listings', requestId, 'kept.jsonl'], { env: emulator.env, cwd: dir, wrapper: ['sh', '-c', 'ulimit -f 1 && exec "$0" "$@"'] });
    assert.equal(cut.code, 2, cut.stderr);
    assert.match(cut.stderr, /^error: kept\.jsonl: could not write: file too large \(EFBIG\)\nhint: /);
    assert.doesNotMatch(cut.stderr, /\.tmp/);
    assert.equal(readFileSync(join(dir, 'kept.jsonl'), 'utf8'), 'before\n');
    assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), [], 'no temporary file left');
  });

  it('a FILE that names a descriptor (/dev/fd/3, /proc/self/fd/3) is written through it: what the file held is kept, at its offset; one not open is refused', async () => {
    const inShell = (script: string, args: string[]) => runCsafe(args, { env: emulator.env, cwd: dir, wrapper: ['sh', '-c', script] });
    const raw = await run(['data', 'download', 'listings', requestId]);
    writeFileSync(join(dir, 'kept.log'), 'before\n');
    const inode = lstatSync(join(dir, 'kept.log')).ino;
    const appended = await inShell('exec "$0" "$@" 3>>kept.log', ['data', 'download', 'listings', requestId, '/dev/fd/3']);
    assert.equal(appended.code, 0, appended.stderr);
    assert.equal(readFileSync(join(dir, 'kept.log'), 'utf8'), `before\n${raw.stdout}`);
    assert.equal(lstatSync(join(dir, 'kept.log')).ino, inode, 'the same file, not one renamed over it');
    // Its offset kept: what the shell writes to it next comes after the download, not over it.
    const atOffset = await inShell('{ "$0" "$@"; echo end >&3; } 3>truncated.log', ['data', 'download', 'listings', requestId, '/proc/self/fd/3']);
    assert.equal(atOffset.code, 0, atOffset.stderr);
    assert.equal(readFileSync(join(dir, 'truncated.log'), 'utf8'), `${raw.stdout}end\n`);
    // 5: one of node's own in a process given 0-2 only (a write into its event loop crashed csafe); 55: none.
    for (const descriptor of [5, 55]) {
      const refused = await runCsafe(['data', 'download', 'listings', requestId, `/dev/fd/${descriptor}`], { env: emulator.env, cwd: dir });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, new RegExp(`^error: /dev/fd/${descriptor}: descriptor ${descriptor} is not open\n`));
    }
  });

  it('a descriptor that shares stdout (3>&1), non-blocking once stdout is a pipe, waits for a slow reader: the download is whole', async () => {
    const objects = Array.from({ length: 1500 }, (_, index) => JSON.stringify({ id: `o${index}`, title: `bike ${index}` }));
    writeFileSync(join(dir, 'many.jsonl'), objects.join('\n') + '\n');
    const imported = await run(['data', 'import', 'listings', 'many.jsonl', '--wait', '--json']);
    assert.equal(imported.code, 0, imported.stderr);
    const many = JSON.parse(imported.stdout).request_id;
    const whole = Buffer.byteLength((await run(['data', 'download', 'listings', many])).stdout);
    assert.ok(whole > 2 * 65536, 'more than a pipe holds');
    // The reader starts late: the pipe fills, and a non-blocking write is refused (EAGAIN) until it reads.
    const slow = await runCsafe(['data', 'download', 'listings', many, '/dev/fd/3'], { env: emulator.env, cwd: dir, wrapper: ['sh', '-c', '"$0" "$@" 3>&1 | { sleep 1; wc -c; }'] });
    assert.doesNotMatch(slow.stderr, /error/, slow.stderr);
    assert.equal(Number(slow.stdout.trim()), whole);
  });

  // Root may write any file: the check runs as nobody, where setpriv can make this process that user.
  const asUser = process.getuid?.() !== 0 ? [] : hasSetpriv ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : undefined;
  it('a FILE made read-only is refused, as `>` refuses it, and left as it was: a rename asks only for a writable directory', { skip: asUser === undefined && 'root without setpriv' }, async () => {
    const own = join(dir, 'own');
    mkdirSync(join(own, 'config'), { recursive: true });
    for (const path of [dir, own, join(own, 'config')]) chmodSync(path, 0o777);
    const kept = join(own, 'kept.jsonl');
    writeFileSync(kept, 'before\n', { mode: 0o444 });
    if (asUser?.length) chownSync(kept, 65534, 65534);
    const env = { ...emulator.env, CSAFE_CONFIG_DIR: join(own, 'config') };
    const refused = await runCsafe(['data', 'download', 'listings', requestId, 'kept.jsonl'], { env, cwd: own, wrapper: asUser });
    assert.equal(refused.code, 2, refused.stderr);
    // (Run as nobody, a warning may come first: the suite's directories above this one are its own.)
    assert.match(refused.stderr, /^error: kept\.jsonl: could not write: permission denied \(EACCES\)$/m);
    assert.equal(readFileSync(kept, 'utf8'), 'before\n');
  });

  it('on a terminal escapes the C1 controls JSON leaves raw, which a pipe gets byte for byte', async () => {
    const piped = await run(['data', 'download', 'listings', requestId]);
    assert.match(piped.stdout, /csi \u009b31m red/);
    const shown = await runCsafe(['data', 'download', 'listings', requestId], { env: { ...emulator.env, CSAFE_FORCE_TTY: '1' }, cwd: dir });
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout, /[\u001b\u0080-\u009f]/);
    assert.match(shown.stdout, /csi \S+31m red/);
  });

  it('an expired address is replaced by looking the request up again; one that keeps expiring is exit 1 with what to do', async () => {
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { expired_download_urls: 1 } });
    const renewed = await run(['data', 'download', 'listings', requestId]);
    assert.equal(renewed.code, 0, renewed.stderr);
    assert.match(renewed.stderr, new RegExp(`the download address of ${requestId} has expired; looking the request up again`));
    assert.equal(renewed.stdout.trimEnd().split('\n').length, 3);

    await emulator.control('/_emulator/quirks', { method: 'POST', body: { expired_download_urls: 3 } });
    const expired = await run(['data', 'download', 'listings', requestId]);
    assert.equal(expired.code, 1, expired.stderr);
    assert.match(expired.stderr, new RegExp(`^error: the download address of ${requestId} expired 3 times \\(last: .*Request has expired\\)\\nhint: .*clock.*csafe data download listings ${requestId}\\n`, 'm'));
    assert.doesNotMatch(expired.stderr, /Signature=(?!\[REDACTED\])/);
  });

  it('a request without an output yet is one error saying what to run instead; an add request has one; -o tsv is refused', async () => {
    const response = await fetch(`${emulator.baseUrl}/v1/data/listings/import`, { method: 'POST', headers: { Authorization: `Bearer ${emulator.apiKey}` } });
    const queued = ((await response.json()) as { requestId: string }).requestId;
    const early = await run(['data', 'download', 'listings', queued]);
    assert.equal(early.code, 1);
    assert.equal(early.stderr, `error: request ${queued} has no output to download (status queued)\nhint: a request has its output once it has ended (an import once it has succeeded): csafe data status listings ${queued} --wait\n`);

    // An add request's output comes from …/results/download-url too, once it has ended.
    const added = await run(['data', 'add', 'listings', 'objects.jsonl', '--wait', '--json']);
    const addId = JSON.parse(added.stdout)[0].request_id;
    const ofAdd = await run(['data', 'download', 'listings', addId, '-o', 'ndjson']);
    assert.equal(ofAdd.code, 0, ofAdd.stderr);
    assert.deepEqual(ofAdd.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id), ['a', 'b', 'c']);

    // A service with only the spec's endpoints: an import's data_url from its record; an add request has no download there.
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { spec_only: true } });
    try {
      const fromRecord = await run(['data', 'download', 'listings', requestId, '-o', 'ndjson']);
      assert.equal(fromRecord.code, 0, fromRecord.stderr);
      assert.equal(fromRecord.stdout.trimEnd().split('\n').length, 3);
      const notThere = await run(['data', 'download', 'listings', addId]);
      assert.equal(notThere.code, 1);
      assert.equal(notThere.stderr, `error: request ${addId} is an add request, and this service has no download of its output\nhint: its objects and labels are in its record: csafe data status listings ${addId}\n`);
      const unknown = await run(['data', 'download', 'listings', 'req_nope']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /404 not_found: no request req_nope/);
    } finally {
      await emulator.control('/_emulator/quirks', { method: 'POST', body: { spec_only: false } });
    }

    const tsv = await run(['data', 'download', 'listings', requestId, '-o', 'tsv']);
    assert.equal(tsv.code, 2);
    assert.match(tsv.stderr, /^error: data download: -o tsv: the output is JSON Lines/);
  });
});
