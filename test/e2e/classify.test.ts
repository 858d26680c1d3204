import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES, outcome, runCsafe, spawnCsafe, startEmulatorProcess, tempDir, withEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { pngOfLength } from '../emulator/png.js';
import { waitFor } from '../helpers/wait.js';

/** A file the client takes for a PNG (magic bytes) of a chosen size, for limit tests. */
const pngOfSize = (path: string, bytes: number) => writeFileSync(path, pngOfLength(bytes, randomBytes));

// Most runs go through main() in this process: what they check needs no process of its own. A
// missing key and the lines in flight under --concurrency are checked on bin/csafe itself.
describe('csafe classify', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const post = join(EXAMPLES, 'post.txt');
  const photo = join(EXAMPLES, 'photo.png');
  const knownBad = join(EXAMPLES, 'known-bad.png');
  const run = (args: string[], input?: string) => runInProcess(args, { env: emulator.env, input });

  before(async () => {
    emulator = await startEmulatorProcess();
  });
  after(() => emulator.stop());
  beforeEach(() => emulator.control('/_emulator/reset', { method: 'POST' }));

  it('classifies a text file and images, and prints JSON when piped', async () => {
    const { code, stdout, stderr } = await run(['classify', post, photo, knownBad, '--user-id', 'u1']);
    assert.equal(code, 0, stderr);
    const response = JSON.parse(stdout);
    assert.equal(response.user_id, 'u1');
    const violence = response.labels.find((l: { label: string }) => l.label === 'violence');
    assert.equal(violence.decision, 'match');
    const similarity = response.labels.find((l: { type: string }) => l.type === 'similarity');
    assert.equal(similarity.set_id, 'rs_emulator_known_bad');
    const [request] = await emulator.requests();
    assert.equal(request!.service_version, '2026-08-11', 'the current version is sent explicitly');
    assert.match(stderr, new RegExp(`^classified together, as one piece of content: ${post}, ${photo}, ${knownBad}; --each classifies each file on its own$`, 'm'));
    const texts = await run(['classify', '--text', 'a', '--text', 'b', '--user-id', 'u1']);
    assert.match(texts.stderr, /^classified together, as one piece of content: --text, --text$/m, '--each takes files: not pointed to for texts');
  });

  it('--metadata @- reads stdin as metadata: stdin is then no content to classify', async () => {
    const { code, stderr } = await run(['classify', '--metadata', '@-', '--user-id', 'u1'], '{"surface":"chat"}');
    assert.equal(code, 2);
    assert.match(stderr, /^error: nothing to classify/);
  });

  describe('--each: one request per file, each answer under its file', () => {
    const clean = join(dir, 'clean.txt');
    const bad = join(dir, 'bad.txt');
    writeFileSync(clean, 'have a nice day\n');
    writeFileSync(bad, 'I will kill you\n');

    it('in a pipe one JSON line per file, in the order given, with its file; --json one array', async () => {
      const { code, stdout, stderr } = await run(['classify', '--each', bad, clean, photo, '--user-id', 'u1', '--concurrency', '3']);
      assert.equal(code, 0, stderr);
      const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { file: string; labels: Array<{ label: string; decision: string }> });
      assert.deepEqual(lines.map((line) => line.file), [bad, clean, photo]);
      assert.equal(lines[0]!.labels.find((l) => l.label === 'violence')!.decision, 'match');
      assert.ok(lines[1]!.labels.every((l) => l.decision !== 'match'), 'the clean file is judged on its own');
      assert.equal((await emulator.requests()).length, 3);
      assert.doesNotMatch(stderr, /classified together/);
      const json = await run(['classify', '--each', bad, clean, '--user-id', 'u1', '--json']);
      assert.deepEqual((JSON.parse(json.stdout) as Array<{ file: string }>).map((result) => result.file), [bad, clean]);
    });

    it('on a terminal a FILE column, the decisive label of each file first; --fail-on holds if any file reaches it (exit 4)', async () => {
      // --quiet: no spinner drawn on the test's stand-in terminal.
      const { code, stdout } = await runInProcess(['--quiet', 'classify', '--each', clean, bad, '--user-id', 'u1'], { env: { ...emulator.env, NO_COLOR: '1' }, isTTY: true, columns: 120 });
      assert.equal(code, 0);
      assert.match(stdout, /^FILE +LABEL +DECISION +SCORE$/m);
      assert.match(stdout, new RegExp(`^${bad} +violence +match +`, 'm'));
      assert.equal((await run(['classify', '--each', clean, bad, '--user-id', 'u1', '--fail-on', 'match'])).code, 4);
    });

    it('Ctrl-C stops the run (exit 130): the files not started are not tried, nor each named as failed', async () => {
      await withEmulatorProcess(['--latency', '1000'], async (slow) => {
        const many = Array.from({ length: 8 }, () => bad);
        const controller = new AbortController();
        setTimeout(() => controller.abort('SIGINT'), 300);
        const { code, stderr } = await runInProcess(['classify', '--each', ...many, '--user-id', 'u1', '--concurrency', '2'], { env: slow.env, signal: controller.signal });
        assert.equal(code, 130, stderr);
        assert.doesNotMatch(stderr, /bad\.txt: /);
        assert.ok((await slow.requests()).length <= 2, 'no request started after Ctrl-C');
      });
    });

    it('checks every file before the first request: one the service would refuse, and nothing is sent (exit 2)', async () => {
      const empty = join(dir, 'empty.txt');
      writeFileSync(empty, '');
      const { code, stderr } = await run(['classify', '--each', clean, empty, join(dir, 'nosuch.txt'), '--user-id', 'u1']);
      assert.equal(code, 2, stderr);
      assert.match(stderr, /empty\.txt: is empty/);
      assert.match(stderr, /nosuch\.txt: no such file/, 'every file with a problem is named, not the first alone');
      assert.match(stderr, /\nnothing was sent\n$/);
      assert.deepEqual(await emulator.requests(), []);
    });

    it('takes files only, and none of the flags it would ignore: no stdin, --text, --batch, --content-id, --shard…', async () => {
      for (const args of [['-'], ['--text', 'hi'], ['--batch', join(EXAMPLES, 'items.jsonl')], [], [clean, '--content-id', 'c1'], [clean, '--shard', '0/2'], [clean, '--failed', 'f.jsonl']]) {
        const { code, stderr } = await run(['classify', '--each', ...args, '--user-id', 'u1'], 'x');
        assert.equal(code, 2, stderr);
        assert.match(stderr, /^error: --each /);
      }
    });
  });

  it('renders a table with one row per label, the decisive first, without the columns that say nothing (all alike, or empty)', async () => {
    const { code, stdout } = await run(['classify', '--text', 'you are stupid', '--user-id', 'u1', '-o', 'table']);
    assert.equal(code, 0);
    const lines = stdout.trim().split('\n');
    assert.deepEqual(lines[0]!.split(/ {2,}/), ['LABEL', 'DECISION', 'SCORE', 'ESCALATION'], 'TYPE is classifier in every row, SET empty in every row');
    assert.match(lines[1]!, /^harassment +review +0\.55 +completed$/);
    const threats = await run(['classify', '--text', 'you are stupid and I will kill you', '--user-id', 'u1', '-o', 'table']);
    const decisions = threats.stdout.trim().split('\n').slice(1).map((line) => line.split(/ {2,}/)[1]);
    assert.deepEqual(decisions.slice(0, 2), ['match', 'review'], threats.stdout);
    const tsv = await run(['classify', '--text', 'you are stupid', '--user-id', 'u1', '-o', 'tsv']);
    assert.ok(tsv.stdout.split('\n').includes('harassment\tclassifier\treview\t0.55\tcompleted\t\t'), tsv.stdout);
  });

  it('reads text from stdin with -', async () => {
    const { code, stdout } = await run(['classify', '-', '--user-id', 'u1'], 'I will kill you');
    assert.equal(code, 0);
    assert.ok(JSON.parse(stdout).labels.some((l: { decision: string }) => l.decision === 'match'));
  });

  it('--fail-on match exits 4 only when a label matches; review includes match', async () => {
    assert.equal((await run(['classify', '--text', 'I will kill you', '--user-id', 'u1', '--fail-on', 'match'])).code, 4);
    assert.equal((await run(['classify', '--text', 'you are stupid', '--user-id', 'u1', '--fail-on', 'match'])).code, 0);
    assert.equal((await run(['classify', '--text', 'you are stupid', '--user-id', 'u1', '--fail-on', 'review'])).code, 4);
    assert.equal((await run(['classify', '--text', 'I will kill you', '--user-id', 'u1', '--fail-on', 'review'])).code, 4);
    assert.equal((await run(['classify', '--text', 'hello there', '--user-id', 'u1', '--fail-on', 'review'])).code, 0);
  });

  it('serves the previous version: builds text/images and renders policies', async () => {
    const { code, stdout } = await run(['classify', post, knownBad, '--user-id', 'u1', '--api-version', '2026-08-05', '--metadata', 'source=test']);
    assert.equal(code, 0);
    const response = JSON.parse(stdout);
    assert.ok(Array.isArray(response.policies));
    assert.deepEqual(response.metadata, { source: 'test' });
    assert.equal(response.reference_set_matches[0].set_id, 'rs_emulator_known_bad');
    const table = await run(['classify', post, '--user-id', 'u1', '--api-version', '2026-08-05', '-o', 'tsv']);
    assert.match(table.stdout, /violence\tpolicy\tmatch\t0\.85/);
    const [request] = await emulator.requests();
    assert.equal(request!.service_version, '2026-08-05');
  });

  it('keeps and shows fields and enum values the spec does not list', async () => {
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { unknown_values: true } });
    const json = await run(['classify', '--text', 'hello', '--user-id', 'u1']);
    assert.equal(json.code, 0, json.stderr);
    const response = JSON.parse(json.stdout);
    assert.ok(response.x_emulator, 'unknown top-level field kept');
    assert.ok(response.labels.some((l: { decision: string }) => l.decision === 'needs_context'));
    const table = await run(['classify', '--text', 'hello', '--user-id', 'u1', '-o', 'tsv']);
    assert.match(table.stdout, /emulator_unknown\tclassifier\tneeds_context\t0\.42\tpending/);
  });

  describe('limits are enforced before sending', () => {
    const expectRejected = async (args: string[], pattern: RegExp) => {
      const { code, stderr } = await run(args);
      assert.equal(code, 2, stderr);
      assert.match(stderr, pattern);
      assert.equal((await emulator.requests()).length, 0, 'nothing was sent');
    };

    it('at most 20 images', async () => {
      const images = Array.from({ length: 21 }, (_, i) => join(dir, `img${i}.png`));
      images.forEach((path) => pngOfSize(path, 100));
      await expectRejected(['classify', ...images, '--user-id', 'u1'], /at most 20 images per request, got 21/);
    });

    it('5 MB of base64 per image, naming the file', async () => {
      const big = join(dir, 'big.png');
      pngOfSize(big, 3_800_000);
      await expectRejected(['classify', big, '--user-id', 'u1'], /big\.png: content\[0\]\.source\.data: image is 5066668 bytes of base64/);
    });

    it('8 KB of metadata', async () => {
      await expectRejected(['classify', '--text', 'hi', '--user-id', 'u1', '--metadata', `note=${'x'.repeat(8_000)}`], /^error: --metadata: is \d+ bytes serialized, over the limit of 8000$/m);
    });

    it('6 MB per request', async () => {
      const a = join(dir, 'a.png');
      const b = join(dir, 'b.png');
      pngOfSize(a, 3_000_000);
      pngOfSize(b, 3_000_000);
      await expectRejected(['classify', a, b, '--user-id', 'u1'], /request is \d+ bytes, over the limit of 6000000/);
    });

    it('16,000 characters of text on version 2026-08-05 only', async () => {
      const long = join(dir, 'long.txt');
      writeFileSync(long, 'a'.repeat(16_001));
      await expectRejected(['classify', long, '--user-id', 'u1', '--api-version', '2026-08-05'], /long\.txt: content\[0\]\.text: text is 16001 characters/);
      assert.equal((await run(['classify', long, '--user-id', 'u1'])).code, 0);
    });

    it('a file that is neither text nor an image', async () => {
      const binary = join(dir, 'blob.bin');
      writeFileSync(binary, Buffer.from([0, 1, 2, 3, 255]));
      await expectRejected(['classify', binary, '--user-id', 'u1'], /blob\.bin: neither UTF-8 text nor a PNG, JPEG, GIF or WebP image/);
    });

    it('a missing file', async () => {
      await expectRejected(['classify', join(dir, 'nope.txt'), '--user-id', 'u1'], /nope\.txt: no such file/);
    });

    it('a missing user id', async () => {
      await expectRejected(['classify', '--text', 'hi'], /--user-id is required/);
    });

    it('a flag of many requests on one request (--concurrency, --failed, --from-line …), which it would ignore', async () => {
      await expectRejected(['classify', '--text', 'hi', '--user-id', 'u1', '--concurrency', '4'], /^error: classify without --each or --batch sends one request: it takes no --concurrency\nhint: they are for --batch FILE/);
      await expectRejected(['classify', '--text', 'hi', '--user-id', 'u1', '--failed', 'f.jsonl', '--from-line', '3'], /it takes no --failed, --from-line\n/);
    });
  });

  it('exits 3 on a wrong key, without echoing it', async () => {
    const { code, stderr } = await runInProcess(['classify', '--text', 'hi', '--user-id', 'u1'], {
      env: { ...emulator.env, CSAFE_API_KEY: 'sk_wrong_secret_value' },
    });
    assert.equal(code, 3);
    assert.match(stderr, /401/);
    assert.doesNotMatch(stderr, /sk_wrong_secret_value/);
  });

  it('exits 3 with a hint when no key is configured', async () => {
    const { code, stderr } = await runCsafe(['classify', '--text', 'hi', '--user-id', 'u1'], { env: { CSAFE_BASE_URL: emulator.baseUrl } });
    assert.equal(code, 3);
    assert.match(stderr, /no API key configured/);
    assert.match(stderr, /csafe auth login/);
  });

  it('never prints the key, even with --verbose, and redacts the Authorization header', async () => {
    const { code, stdout, stderr } = await run(['--verbose', 'classify', '--text', 'hi', '--user-id', 'u1']);
    assert.equal(code, 0);
    assert.ok(!stdout.includes(emulator.apiKey) && !stderr.includes(emulator.apiKey));
    assert.match(stderr, /"authorization":"\[REDACTED\]"/);
    assert.match(stderr, /← 200 POST \/v1\/content/);
  });

  describe('--batch', () => {
    it('keeps input order under concurrency, tags lines, and sets invalid lines aside with --skip-invalid (exit 5)', async () => {
      const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ text: i % 7 === 0 ? 'I will kill you' : `message ${i}`, content_id: `c${i}` }));
      lines.splice(10, 0, '{"text": "broken json"');
      lines.splice(20, 0, JSON.stringify({ content: [{ type: 'video', url: 'x' }] }));
      const input = join(dir, 'items.jsonl');
      writeFileSync(input, lines.join('\n') + '\n');
      const skipped = join(dir, 'skipped.jsonl');
      const { code, stdout, stderr } = await run(['classify', '--batch', input, '--user-id', 'u1', '--concurrency', '8', '--skip-invalid', skipped]);
      assert.equal(code, 5, stderr);
      const results = stdout.trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(results.length, 40);
      const expectedLines = Array.from({ length: 42 }, (_, i) => i + 1).filter((n) => n !== 11 && n !== 21);
      assert.deepEqual(results.map((r) => r.line), expectedLines);
      assert.equal(results[0].result.user_id, 'u1');
      const failures = readFileSync(skipped, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      assert.deepEqual(failures.map((f) => f.line), [11, 21]);
      assert.match(failures[0].error, /invalid JSON at column/);
      assert.match(failures[1].error, /content\[0\]/);
      assert.match(stderr, /items\.jsonl:11: invalid JSON/);
      assert.equal((await emulator.requests()).length, 40, 'invalid lines were not sent');
    });

    it('keeps --concurrency lines in flight while the oldest is slow, up to 8 × --concurrency ahead of it, and prints in input order', async () => {
      const input = join(dir, 'slow-first.jsonl');
      writeFileSync(input, Array.from({ length: 60 }, (_, i) => JSON.stringify({ text: `message ${i}` })).join('\n') + '\n');
      // Each answer takes 20 ms, so the slots are seen full; the first is held until released.
      await withEmulatorProcess(['--latency', '20'], async (slow) => {
        const inFlight = () => slow.control('/_emulator/in_flight') as Promise<{ in_flight: number; max_in_flight: number; held: number }>;
        await slow.control('/_emulator/quirks', { method: 'POST', body: { held_requests: 1 } });
        const result = outcome(spawnCsafe(['classify', '--batch', input, '--user-id', 'u1', '--concurrency', '4'], { env: slow.env, cwd: dir }));
        try {
          // Every slot line 1 does not take is refilled as soon as its line is answered, until the
          // window of 32 lines is full (31 answered behind the held one); then reading pauses.
          await waitFor(async () => (await slow.requests()).length >= 31, { what: '31 lines answered while line 1 is held (does the window refill only once line 1 finishes?)' });
          await waitFor(async () => (await inFlight()).in_flight === 1, { what: 'only the held line in flight once the window is full' });
          assert.deepEqual(await inFlight(), { in_flight: 1, max_in_flight: 4, held: 1 }, 'all 4 slots were busy, never more');
        } finally {
          await slow.control('/_emulator/release', { method: 'POST' });
        }
        const { code, stdout, stderr } = await result;
        assert.equal(code, 0, stderr);
        assert.deepEqual(stdout.trim().split('\n').map((l) => JSON.parse(l).line), Array.from({ length: 60 }, (_, i) => i + 1));
        assert.equal((await inFlight()).max_in_flight, 4);
        // The log is in the order the answers left: what was answered before the held line 1 is what was sent while it was
        // held, and that is the window and nothing more (a line sent past it would be answered in 20 ms, before the release).
        const log = await slow.requests();
        const lineOf = (request: Record<string, unknown>) => Number(/message (\d+)/.exec(String(request.body))![1]) + 1;
        const held = log.find((request) => lineOf(request) === 1)!;
        const answeredWhileHeld = log.filter((request) => (request.seq as number) < (held.seq as number)).map(lineOf);
        assert.deepEqual(answeredWhileHeld.sort((a, b) => a - b), Array.from({ length: 31 }, (_, i) => i + 2), 'nothing more is sent while the window is full');
      });
    });

    it('has all of --concurrency 100 lines in flight at once: the connection pool does not cap it', async () => {
      const input = join(dir, 'wide.jsonl');
      writeFileSync(input, Array.from({ length: 100 }, (_, i) => JSON.stringify({ text: `message ${i}` })).join('\n') + '\n');
      // Answers held 1 s: every request is sent long before the first answer comes.
      await withEmulatorProcess(['--latency', '1000'], async (slow) => {
        const { code, stderr } = await runCsafe(['classify', '--batch', input, '--user-id', 'u1', '--concurrency', '100'], { env: slow.env, cwd: dir });
        assert.equal(code, 0, stderr);
        assert.equal(((await slow.control('/_emulator/in_flight')) as { max_in_flight: number }).max_in_flight, 100);
      });
    });

    it('reads stdin and exits 4 with --fail-on when a line matches', async () => {
      const input = ['{"text":"hello"}', '{"text":"I will kill you","user_id":"u9"}'].join('\n');
      const { code, stdout } = await run(['classify', '--batch', '-', '--user-id', 'u1', '--fail-on', 'match'], input);
      assert.equal(code, 4);
      const results = stdout.trim().split('\n').map((l) => JSON.parse(l));
      assert.deepEqual(results.map((r) => r.result.user_id), ['u1', 'u9']);
    });
  });
});
