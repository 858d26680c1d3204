import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { EXAMPLES, outcome, runCsafe, spawnCsafe, tempDir, useEmulatorProcess, withEmulatorProcess, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

/** One part of each shape, as a user writes them. */
const CHAT = { type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text: 'hello', timestamp: '2026-11-21T10:00:00Z' };
const TRANSCRIPT = { type: 'transcript', text: 'welcome back', speaker: 'host', timestamp: '2026-11-21T10:00:01.250+01:00' };
const FRAME = { type: 'frame_image_url', url: 'https://cdn.example.com/f/0001.jpg', timestamp: '2026-11-21T10:00:02Z' };
const AUDIO = { type: 'audio_url', url: 'https://cdn.example.com/a/0001.aac', timestamp: '2026-11-21T10:00:03Z' };
const SHAPES = [CHAT, TRANSCRIPT, FRAME, AUDIO];

const jsonl = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value) + '\n').join('');
const transcripts = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ type: 'transcript', text: `line ${i}`, timestamp: new Date(Date.parse('2026-11-21T10:00:00Z') + i * 1000).toISOString() }));

interface StoredStream {
  id: string;
  stream_url: string | null;
  parts: Array<Record<string, unknown> & { labels: unknown[] }>;
}

/** What the emulator stored for the stream, each part as sent (its labels set apart). */
async function stored(emulator: EmulatorProcess, namespace: string, id: string) {
  const stream = (await emulator.control(`/_emulator/streams/${namespace}/${id}`)) as StoredStream;
  for (const part of stream.parts) assert.ok(Array.isArray(part.labels), 'each stored part has its labels');
  return { ...stream, parts: stream.parts.map(({ labels: _labels, ...part }) => part) };
}

/** The parts requests the emulator received, in arrival order: status, body size, and the body when the log kept it whole. */
const partsRequests = async (emulator: EmulatorProcess) =>
  (await emulator.requests())
    .filter((r) => r.path === '/v1/streams/live/parts')
    .map((r) => ({
      status: r.status,
      bytes: r.body_bytes,
      body: r.body === null || r.body_truncated ? null : (JSON.parse(String(r.body)) as { id: string; data: unknown[] }),
    }));

/** The size of the request that carries these parts, as csafe encodes it. */
const requestBytes = (data: readonly unknown[]) => Buffer.byteLength(JSON.stringify({ id: 'show-42', data }));

/** Writes a file of the test's directory; returns its path. */
const inDir = (dir: string) => (name: string, text: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

// One healthy emulator for the whole file, emptied before each test; the faulty ones are started where a test needs their faults.
const emulator = useEmulatorProcess();
beforeEach(() => emulator.control('/_emulator/reset', { method: 'POST' }));

// Most runs go through main() in this process: what they check needs no process of its own. The
// runs that do (no key and stdin, stdin that is /dev/null, Ctrl-C, files written to the working
// directory) spawn bin/csafe.
describe('csafe stream watch and stream parts', () => {
  const dir = tempDir();
  const file = inDir(dir);
  const run = (args: string[], input?: string) => runInProcess(args, { env: emulator.env, input });
  const parts = (...args: string[]) => run(['stream', 'parts', 'live', '--id', 'show-42', ...args]);

  it('stream watch registers the address and prints the accepted request', async () => {
    const result = await run(['stream', 'watch', 'live', '--id', 'show-42', '--url', 'https://example.com/live/42.m3u8', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(JSON.parse(result.stdout).requestId, /^req_/);
    assert.equal(JSON.parse(result.stdout).status, 'accepted');
    assert.deepEqual(await stored(emulator, 'live', 'show-42'), { id: 'show-42', stream_url: 'https://example.com/live/42.m3u8', parts: [] });

    const table = await run(['stream', 'watch', 'live', '--id', 'show-43', '--url', 'srt://ingest.example.com:9000', '-o', 'table']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^REQUEST_ID {2,}STATUS\nreq_\S+ {2,}accepted\n$/);
  });

  it('stream watch refuses an address it does not accept with one line, exit 2, and sends nothing', async () => {
    const result = await run(['stream', 'watch', 'live', '--id', 'show-42', '--url', 'file:///etc/passwd']);
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'error: --url: expected an absolute http, https, rtmp, rtmps, rtsp or srt URL, got "file:///etc/passwd"\n');
    assert.deepEqual((await emulator.requests()).filter((r) => String(r.path).startsWith('/v1/')), []);
  });

  it('stream parts sends each of the four shapes from a file, as written, in order', async () => {
    const result = await parts(file('parts.jsonl', jsonl(SHAPES)), '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual({ ...JSON.parse(result.stdout), last_request_id: undefined, duration_ms: undefined }, {
      read: 4, valid: 4, invalid: 0, sent: 4, failed: 0, unconfirmed: 0, skipped_checkpoint: 0, other_shards: 0, requests: 1, retries: 0, duration_ms: undefined,
      namespace: 'live', id: 'show-42', last_request_id: undefined, failed_file: null, unconfirmed_file: null, invalid_file: null,
    });
    assert.deepEqual(await stored(emulator, 'live', 'show-42'), { id: 'show-42', stream_url: null, parts: SHAPES });
  });

  it('stream parts reads a JSON array or one object, from a file or stdin', async () => {
    assert.equal((await parts(file('array.json', JSON.stringify(SHAPES.slice(0, 2), null, 2)))).code, 0);
    assert.equal((await run(['stream', 'parts', 'live', '--id', 'show-42', '-'], JSON.stringify(FRAME))).code, 0);
    const piped = await run(['stream', 'parts', 'live', '--id', 'show-42'], JSON.stringify(AUDIO));
    assert.equal(piped.code, 0, piped.stderr);
    assert.deepEqual((await stored(emulator, 'live', 'show-42')).parts, SHAPES);
  });

  it('stream parts reports every invalid part of each shape with its line, exits 2 and sends nothing', async () => {
    const path = file('bad.jsonl', [
      JSON.stringify(CHAT),
      JSON.stringify({ ...CHAT, sender_id: undefined, text: '' }),
      JSON.stringify({ ...TRANSCRIPT, timestamp: '2026-11-21 10:00' }),
      JSON.stringify({ ...TRANSCRIPT, speaker: 7 }),
      JSON.stringify({ ...FRAME, url: 'cdn.example.com/f/1.jpg' }),
      JSON.stringify({ ...AUDIO, url: 'rtmp://x/a.aac', extra: 1 }),
      JSON.stringify({ ...AUDIO, type: 'video_url' }),
      '{"type": "transcript",',
    ].join('\n') + '\n');
    const result = await parts(path);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    const lines = result.stderr.trim().split('\n');
    assert.deepEqual(lines.slice(0, -1).map((line) => line.slice(path.length + 1)), [
      '2: sender_id: is required: expected a non-empty string (your stable identifier of the sender); text: expected a non-empty string (the message)',
      '3: timestamp: expected an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z',
      '4: speaker: expected a non-empty string (who spoke), or no speaker field',
      '5: url: expected an absolute http or https URL',
      '6: url: expected an absolute http or https URL; extra: unknown field',
      '7: type: unknown part type "video_url": expected one of audio_url, frame_image_url, chat_message, transcript',
      lines.at(-2)!.slice(path.length + 1),
    ]);
    assert.match(lines.at(-2)!, new RegExp(`^${path}:8: `));
    assert.equal(lines.at(-1), 'nothing was sent: fix the 7 invalid parts, or pass --skip-invalid FILE to send the rest');
    assert.deepEqual(await partsRequests(emulator), []);
  });

  it('stream parts --skip-invalid sends the valid parts and writes the rejects (exit 5: partial)', async () => {
    const rejects = join(dir, 'rejects.jsonl');
    const result = await parts(file('mixed.jsonl', jsonl([CHAT, { ...FRAME, url: 'nope' }, AUDIO])), '--skip-invalid', rejects);
    assert.equal(result.code, 5, result.stderr);
    assert.deepEqual((await stored(emulator, 'live', 'show-42')).parts, [CHAT, AUDIO]);
    const [reject] = readFileSync(rejects, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(reject, { line: 2, error: 'url: expected an absolute http or https URL', record: JSON.stringify({ ...FRAME, url: 'nope' }) });
  });

  it('stream parts builds the right part from flags, each of the four', async () => {
    const before = Date.now();
    const runs = [
      ['--chat', 'hello', '--sender-id', 'u7', '--sender-name', 'Ann'],
      ['--transcript', 'welcome back', '--speaker', 'host'],
      ['--frame', 'https://cdn.example.com/f/0001.jpg', '--timestamp', '2026-11-21T10:00:00Z'],
      ['--audio', 'https://cdn.example.com/a/0001.aac'],
    ];
    for (const flags of runs) {
      const result = await parts(...flags);
      assert.equal(result.code, 0, result.stderr);
    }
    const [chat, transcript, frame, audio] = (await stored(emulator, 'live', 'show-42')).parts;
    const now = (part: Record<string, unknown> | undefined) => {
      const time = Date.parse(String(part!.timestamp));
      assert.match(String(part!.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(time >= before - 1000 && time <= Date.now(), `${part!.timestamp} is the time of the run`);
      return { ...part, timestamp: 'now' };
    };
    assert.deepEqual(now(chat), { type: 'chat_message', sender_id: 'u7', sender_display_name: 'Ann', text: 'hello', timestamp: 'now' });
    assert.deepEqual(now(transcript), { type: 'transcript', text: 'welcome back', speaker: 'host', timestamp: 'now' });
    assert.deepEqual(frame, { type: 'frame_image_url', url: 'https://cdn.example.com/f/0001.jpg', timestamp: '2026-11-21T10:00:00Z' });
    assert.deepEqual(now(audio), { type: 'audio_url', url: 'https://cdn.example.com/a/0001.aac', timestamp: 'now' });
  });

  it('stream parts refuses flags that make no single part, naming what is missing or what conflicts', async () => {
    const cases: Array<[string[], string]> = [
      [['--chat', 'hello'], '--chat needs --sender-id ID and --sender-name NAME'],
      [['--chat', 'hi', '--sender-id', 'u7', '--sender-name', 'Ann', '--audio', 'https://x/a.aac'], '--chat and --audio conflict: flags make one part; give one of --chat, --transcript, --frame, --audio, or put several parts in a FILE'],
      [['--frame', 'https://x/f.jpg', '--speaker', 'host'], '--speaker goes with --transcript, not --frame'],
      [['--transcript', 'hi', '--timestamp', 'noon'], '--timestamp: expected an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z'],
      [['parts.jsonl', '--transcript', 'hi'], '--transcript belongs to a part by flags; it cannot be given with a FILE'],
      [['parts.jsonl', '--timestamp', '2026-11-21T10:00:00Z'], '--timestamp belongs to a part by flags; it cannot be given with a FILE'],
      [['parts.jsonl', '--speaker', 'host'], '--speaker belongs to a part by flags; it cannot be given with a FILE'],
      [['-', '--chat', 'hi', '--sender-id', 'u7'], '--chat and --sender-id belong to a part by flags; they cannot be given with a FILE'],
      [['--captions', 'talk.vtt', '--start', '2026-11-21T10:00:00Z', '--speaker', 'host'], '--speaker belongs to a part by flags; it cannot be given with --captions'],
      [['parts.jsonl', '--captions', 'talk.vtt', '--start', '2026-11-21T10:00:00Z'], 'parts.jsonl and --captions conflict: give parts one way, a FILE, --captions FILE or one part by flags'],
    ];
    for (const [flags, message] of cases) {
      const result = await parts(...flags);
      assert.equal(result.code, 2, flags.join(' '));
      assert.equal(result.stderr, `error: ${message}\n`);
    }
    assert.deepEqual(await partsRequests(emulator), []);
  });

  it('stream parts without an API key says so first and alone, before reading its input', async () => {
    const result = await runCsafe(['stream', 'parts', 'live', '--id', 'k', '-'], { env: { CSAFE_BASE_URL: emulator.baseUrl }, input: '{"type": "nope"}\n', cwd: dir });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /^error: no API key configured\n/);
    assert.doesNotMatch(result.stderr, /stopped after|-:1:/);
    const flags = await runCsafe(['stream', 'parts', 'live', '--id', 'k', '--transcript', 'hi'], { env: { CSAFE_BASE_URL: emulator.baseUrl }, cwd: dir });
    assert.equal(flags.code, 3, flags.stderr);
    assert.match(flags.stderr, /^error: no API key configured\n/);
  });

  it('stream parts with stdin that is neither a pipe nor a file, and no FILE, says how to give parts', async () => {
    const result = await runCsafe(['stream', 'parts', 'live', '--id', 'x'], { env: emulator.env, cwd: dir, wrapper: ['sh', '-c', 'exec "$0" "$@" </dev/null'] });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr, 'error: no parts: give a FILE (`-` reads stdin), --captions FILE, or one part by flags (--chat, --transcript, --frame or --audio)\n');
  });

  it('stream parts and stream watch say the same about a bad --id', async () => {
    for (const id of [[], ['--id', '']]) {
      const watch = await run(['stream', 'watch', 'live', ...id, '--url', 'https://example.com/live.m3u8']);
      const partsRun = await run(['stream', 'parts', 'live', ...id, '--transcript', 'hi']);
      assert.equal(watch.code, 2, watch.stderr);
      assert.equal(partsRun.code, 2, partsRun.stderr);
      assert.equal(partsRun.stderr, watch.stderr);
    }
  });

  it('stream parts sends each part as compact JSON: its fields as read, white space dropped', async () => {
    await parts(file('spaced.jsonl', '{ "type" : "transcript",  "text": "\\u0041 b", "timestamp": "2026-11-21T10:00:00Z" }\n'));
    const [request] = await partsRequests(emulator);
    assert.equal(request!.bytes, Buffer.byteLength('{"id":"show-42","data":[{"type":"transcript","text":"A b","timestamp":"2026-11-21T10:00:00Z"}]}'));
  });

  it('stream parts sends 250 parts in 3 requests of --batch-size 100, in order', async () => {
    const sent = transcripts(250);
    const result = await parts(file('many.jsonl', jsonl(sent)), '--batch-size', '100', '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).requests, 3);
    // The log keeps a body's first 4 KiB: each request is known by its size, the parts by what the stream stored.
    assert.deepEqual((await partsRequests(emulator)).map((r) => [r.status, r.bytes]), [
      [202, requestBytes(sent.slice(0, 100))],
      [202, requestBytes(sent.slice(100, 200))],
      [202, requestBytes(sent.slice(200))],
    ]);
    assert.deepEqual((await stored(emulator, 'live', 'show-42')).parts, sent);
  });

  it('stream parts keeps each request under --max-batch-bytes', async () => {
    const sent = transcripts(40);
    const result = await parts(file('bytes.jsonl', jsonl(sent)), '--max-batch-bytes', '2000');
    assert.equal(result.code, 0, result.stderr);
    const requests = await partsRequests(emulator);
    assert.ok(requests.length > 1);
    for (const request of requests) assert.ok(Number(request.bytes) <= 2000);
    assert.deepEqual(requests.flatMap((r) => r.body!.data), sent);
  });

  it('stream parts stops on a refused key with exit 3, the part not sent in the failed file', async () => {
    const failed = join(tempDir(), 'failed.jsonl');
    const result = await runInProcess(['stream', 'parts', 'live', '--id', 'show-42', '--transcript', 'hi', '--failed', failed], { env: { ...emulator.env, CSAFE_API_KEY: 'sk_test_wrong' } });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, new RegExp(`^stopped: the service refused the credentials \\(401\\); what was not sent is in ${failed}$`, 'm'));
    assert.deepEqual(readFileSync(failed, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { text: string }).text), ['hi']);
  });
});

describe('csafe stream parts against a failing service', () => {
  const dir = tempDir();

  it('writes the parts of batches that keep failing to --failed, exactly as sent, exit 1 (none sent); the file resent succeeds', async () => {
    const sent = transcripts(5);
    const input = inDir(dir)('parts.jsonl', jsonl(sent));
    const failed = join(dir, 'failed.jsonl');
    await withEmulatorProcess(['--fault-rate', '1', '--faults', '503'], async (faulty) => {
      const result = await runInProcess(['stream', 'parts', 'live', '--id', 'show-42', input, '--batch-size', '3', '--failed', failed, '--json'], { env: faulty.env });
      assert.equal(result.code, 1, result.stderr);
      const summary = JSON.parse(result.stdout);
      assert.deepEqual([summary.failed, summary.unconfirmed, summary.failed_file, summary.unconfirmed_file], [5, 0, failed, null]);
      assert.doesNotMatch(result.stderr, /may already hold/);
      assert.deepEqual(readdirSync(dir).filter((name) => name.includes('unconfirmed')), []);
      assert.match(result.stderr, new RegExp(`${input}:1-3: a batch of 3 parts failed: .*503.*\\(after 2 retries\\)`));
      assert.match(result.stderr, new RegExp(`5 parts of failed batches written to ${failed}: resend them with \`csafe --json stream parts live --id show-42 ${failed}\``));
      // 503 says "not processed": each batch is tried three times.
      assert.equal((await partsRequests(faulty)).length, 6);
    });
    assert.equal(readFileSync(failed, 'utf8'), jsonl(sent));
    const resent = await runInProcess(['stream', 'parts', 'live', '--id', 'show-42', failed], { env: emulator.env });
    assert.equal(resent.code, 0, resent.stderr);
    assert.deepEqual((await stored(emulator, 'live', 'show-42')).parts, sent);
  });

  it('puts the parts of batches the service may have applied in --unconfirmed, never in --failed: nothing is stored twice', async () => {
    const sent = transcripts(250);
    const input = inDir(dir)('p250.jsonl', jsonl(sent));
    const failed = join(dir, 'maybe-failed.jsonl');
    const unconfirmed = join(dir, 'maybe-unconfirmed.jsonl');
    const lines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { text: string }) : []);
    const textsOf = (records: ReadonlyArray<Record<string, unknown>>) => records.map((record) => String(record.text));
    await withEmulatorProcess(['--faults', 'reset,timeout,503', '--fault-rate', '0.4', '--fault-delay', '3000', '--seed', '5'], async (faulty) => {
      const args = ['--request-timeout', '1s', '--max-retries', '0', 'stream', 'parts', 'live', '--id', 'f3', input, '--batch-size', '25', '--failed', failed, '--unconfirmed', unconfirmed, '--json'];
      const result = await runInProcess(args, { env: faulty.env });
      assert.equal(result.code, 5, result.stderr);
      const summary = JSON.parse(result.stdout);
      const faults = (await partsRequests(faulty)).length;
      assert.ok(faults > 0);
      const stored1 = textsOf((await stored(faulty, 'live', 'f3')).parts);
      const failedTexts = textsOf(lines(failed));
      const unconfirmedTexts = textsOf(lines(unconfirmed));
      assert.ok(unconfirmedTexts.length > 0, 'a reset or timeout met some batch');
      assert.ok(failedTexts.length > 0, 'a 503 met some batch');
      assert.deepEqual([summary.failed, summary.unconfirmed, summary.failed_file, summary.unconfirmed_file], [failedTexts.length, unconfirmedTexts.length, failed, unconfirmed]);
      assert.equal(new Set(stored1).size, stored1.length, 'no part stored twice');
      for (const text of failedTexts) assert.ok(!stored1.includes(text) && !unconfirmedTexts.includes(text), `${text}: in the failed file only`);
      for (const text of textsOf(sent)) assert.ok(stored1.includes(text) || failedTexts.includes(text) || unconfirmedTexts.includes(text), `${text} is accounted for`);
      assert.match(result.stderr, new RegExp(`${unconfirmedTexts.length} parts? of batches whose answer was lost written to ${unconfirmed}: the service may already hold them, and resending them may store them twice\n`));
    });
    const resent = await runInProcess(['stream', 'parts', 'live', '--id', 'f3', failed, '--json'], { env: emulator.env });
    assert.equal(resent.code, 0, resent.stderr);
    assert.deepEqual(textsOf((await stored(emulator, 'live', 'f3')).parts), textsOf(lines(failed)));
  });

  it('never replays parts after a connection reset, which may come after the service took them', async () => {
    await withEmulatorProcess(['--fault-rate', '1', '--faults', 'reset'], async (faulty) => {
      const result = await runCsafe(['stream', 'parts', 'live', '--id', 'show-42', '--transcript', 'hi', '--failed', join(dir, 'reset.jsonl')], { env: faulty.env, cwd: dir });
      assert.equal(result.code, 1, result.stderr);
      assert.doesNotMatch(result.stderr, /retr(y|ies)/);
      // The service took the part before the reset: it is unconfirmed, in the default file, not in --failed.
      assert.equal(existsSync(join(dir, 'reset.jsonl')), false);
      const [unconfirmed, ...others] = readdirSync(dir).filter((name) => /^csafe-stream-parts-unconfirmed-\d{8}T\d{6}Z\.jsonl$/.test(name));
      assert.ok(unconfirmed !== undefined && others.length === 0, readdirSync(dir).join(' '));
      assert.equal(JSON.parse(readFileSync(join(dir, unconfirmed), 'utf8')).text, 'hi');
    });
  });
});

describe('csafe stream parts and Ctrl-C', () => {
  const dir = tempDir();

  it('sends no batch after Ctrl-C, waits for the answer in flight, says how many parts went and where the rest are, exit 130', async (t) => {
    const sent = transcripts(1000);
    const input = inDir(dir)('long.jsonl', jsonl(sent));
    await withEmulatorProcess(['--latency', '300'], async (slow) => {
      const child = spawnCsafe(['--request-timeout', '30s', '--api-key', slow.apiKey, 'stream', 'parts', 'live', '--id', 'show-42', input, '--batch-size', '10'], { env: slow.env, cwd: dir });
      t.after(() => child.exitCode === null && child.kill('SIGKILL'));
      const ended = outcome(child);
      await waitFor(async () => (await partsRequests(slow)).length >= 2, { what: 'two parts requests to reach the emulator' });
      child.kill('SIGINT');
      const { code, stderr } = await ended;
      assert.equal(code, 130, stderr);
      const [, parts, requests, rest] = /interrupted: (\d+) parts sent in (\d+) requests, \d+ failed \(in (\S+)\); the parts not sent are in the failed file too\n/.exec(stderr) ?? [];
      assert.ok(parts !== undefined, stderr);
      assert.equal(Number(parts), Number(requests) * 10);
      // The parts not sent are in the failed file, in order, and the run says how to send them.
      assert.deepEqual(readFileSync(join(dir, rest!), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line)), sent.slice(Number(parts)));
      // The global flags before the command and the batch flags are kept, the API key given by flag is not.
      assert.match(stderr, new RegExp(`continue with: csafe --request-timeout 30s stream parts live --id show-42 ${rest} --batch-size 10\n`));
      assert.ok(!stderr.includes(slow.apiKey), stderr);
      // What the run says went is exactly what the stream holds: the request in flight was answered first.
      assert.deepEqual((await stored(slow, 'live', 'show-42')).parts, sent.slice(0, Number(parts)));
    });
  });
});

describe('csafe stream parts --captions', () => {
  const dir = tempDir();
  const file = inDir(dir);
  const captions = (path: string, ...flags: string[]) =>
    runInProcess(['stream', 'parts', 'live', '--id', 'talk', '--captions', path, '--start', '2026-11-21T10:00:00Z', ...flags], { env: emulator.env });

  it('turns WebVTT cues into transcript parts: BOM, CRLF, comments, identifiers, settings, voices, multi-line, tags', async () => {
    const vtt = file('talk.vtt', '\uFEFFWEBVTT - a talk\r\n\r\nNOTE recorded live\r\n\r\nSTYLE\r\n::cue { color: lime }\r\n\r\nintro\r\n' +
      '00:00:01.000 --> 00:00:03.500 align:start position:10%\r\n<v Ann>Welcome <b>back</b>,\r\neveryone.</v>\r\n\r\n' +
      '2\r\n01:02.250 --> 01:04.000\r\n<v.loud Bob>Thanks &amp; hi\r\n\r\n' +
      '00:01:00:00.000 --> 00:00:05.000\r\n<i>a bad timing</i>\r\n\r\n' +
      '01:00:00.005 --> 01:00:01.000\r\n<c.yellow>no speaker</c>\r\n');
    const checked = await captions(vtt);
    assert.equal(checked.code, 2);
    assert.match(checked.stderr, new RegExp(`^${vtt}:17: expected a timing line like 00:00:01.000 --> 00:00:04.000\\n`));

    const rejects = join(dir, 'rejects.jsonl');
    const result = await captions(vtt, '--skip-invalid', rejects, '--json');
    assert.equal(result.code, 5, result.stderr);
    assert.deepEqual((await stored(emulator, 'live', 'talk')).parts, [
      { type: 'transcript', text: 'Welcome back,\neveryone.', speaker: 'Ann', timestamp: '2026-11-21T10:00:01.000Z' },
      { type: 'transcript', text: 'Thanks & hi', speaker: 'Bob', timestamp: '2026-11-21T10:01:02.250Z' },
      { type: 'transcript', text: 'no speaker', timestamp: '2026-11-21T11:00:00.005Z' },
    ]);
    assert.deepEqual(JSON.parse(readFileSync(rejects, 'utf8')), {
      line: 17,
      error: 'expected a timing line like 00:00:01.000 --> 00:00:04.000',
      record: '00:01:00:00.000 --> 00:00:05.000\n<i>a bad timing</i>',
    });
  });

  it('reads the README example examples/talk.vtt: a voice per cue, a multi-line cue, tags stripped', async () => {
    const result = await captions(join(EXAMPLES, 'talk.vtt'));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual((await stored(emulator, 'live', 'talk')).parts, [
      { type: 'transcript', text: 'Welcome back to the show.', speaker: 'host', timestamp: '2026-11-21T10:00:01.000Z' },
      { type: 'transcript', text: 'Thanks for having me.\nIt is great to finally be here.', speaker: 'Ann', timestamp: '2026-11-21T10:00:05.000Z' },
      { type: 'transcript', text: '[applause]', timestamp: '2026-11-21T10:00:09.500Z' },
    ]);
  });

  it('turns SubRip cues into transcript parts, told apart by content whatever the name', async () => {
    const srt = file('talk.txt', '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> there,\r\nsecond line\r\n\r\n' +
      '2\r\n0:00:03,5 --> 00:00:04,000 X1:40 X2:600 Y1:20 Y2:50\r\n{\\an8}<font color="#fff">I <3 you</font>\r\n');
    const result = await captions(srt);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual((await stored(emulator, 'live', 'talk')).parts, [
      { type: 'transcript', text: 'Hello there,\nsecond line', timestamp: '2026-11-21T10:00:01.000Z' },
      { type: 'transcript', text: 'I <3 you', timestamp: '2026-11-21T10:00:03.500Z' },
    ]);
  });

  it('a cue time past the limit and a cue that is not UTF-8 are problems at their lines (exit 2), SubRip without cue numbers is read, UTF-16 is one error', async () => {
    const srt = file('latin1.srt', Buffer.from('00:00:01,000 --> 00:00:02,000\nhi\n\n99999999999999:00:00,000 --> 99999999999999:00:01,000\nlate\n\n00:00:03,000 --> 00:00:04,000\nCaf\u00e9\n', 'latin1'));
    const checked = await captions(srt);
    assert.equal(checked.code, 2);
    assert.equal(checked.stderr.split('\n').slice(0, 2).join('\n'), `${srt}:4: expected a timing line like 00:00:01,000 --> 00:00:04,000\n` +
      `${srt}:8: the cue's text is not UTF-8: convert the file, e.g. iconv -f latin1 -t utf-8`);
    assert.deepEqual(await partsRequests(emulator), []);
    const skipped = await captions(srt, '--skip-invalid', join(dir, 'skipped.jsonl'));
    assert.equal(skipped.code, 5, skipped.stderr);
    assert.deepEqual((await stored(emulator, 'live', 'talk')).parts, [{ type: 'transcript', text: 'hi', timestamp: '2026-11-21T10:00:01.000Z' }]);

    const utf16 = await captions(file('utf16.vtt', Buffer.from('\uFEFFWEBVTT\n\n00:01.000 --> 00:02.000\nhi\n', 'utf16le')));
    assert.equal(utf16.code, 2);
    assert.equal(utf16.stderr, `error: ${join(dir, 'utf16.vtt')}: is UTF-16 text, expected UTF-8: convert it first, e.g. iconv -f utf-16 -t utf-8\n`);
  });

  it('--captions needs --start, a date-time with a time zone; a file that is not captions is one error line', async () => {
    const srt = file('one.srt', '1\n00:00:01,000 --> 00:00:02,000\nhi\n');
    const noStart = await runInProcess(['stream', 'parts', 'live', '--id', 'talk', '--captions', srt], { env: emulator.env });
    assert.equal(noStart.code, 2);
    assert.equal(noStart.stderr, "error: --captions needs --start DATE-TIME: the date-time the captions' 00:00 stands for, e.g. 2026-11-21T10:00:00Z\n");
    const badStart = await runInProcess(['stream', 'parts', 'live', '--id', 'talk', '--captions', srt, '--start', '10:00'], { env: emulator.env });
    assert.equal(badStart.code, 2);
    assert.equal(badStart.stderr, 'error: --start: expected an ISO 8601 date-time with a time zone, e.g. 2026-11-21T10:00:00Z\n');
    const notCaptions = await captions(file('parts.jsonl', '{"type":"transcript"}\n'));
    assert.equal(notCaptions.code, 2);
    assert.match(notCaptions.stderr, /^error: .*parts\.jsonl:1: is not a caption file: expected WEBVTT on the first line/);
    assert.deepEqual(await partsRequests(emulator), []);
  });
});
