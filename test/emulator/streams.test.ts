import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { assertError, call, startTestEmulator, useTestEmulator } from './support.js';

const AT = '2026-11-21T10:00:00Z';
const chat = (text: string, sender = 'u7') => ({ type: 'chat_message', sender_display_name: 'Ann', sender_id: sender, text, timestamp: AT });
const transcript = (text: string, speaker?: string) => ({ type: 'transcript', text, timestamp: AT, ...(speaker !== undefined && { speaker }) });
const frame = (url = 'https://cdn.example.com/f/0001.jpg') => ({ type: 'frame_image_url', timestamp: AT, url });
const audio = (url = 'https://cdn.example.com/a/0001.aac') => ({ type: 'audio_url', timestamp: '2026-11-21T11:00:00.250+01:00', url });

interface StreamView {
  id: string;
  stream_url: string | null;
  parts: Array<Record<string, unknown> & { labels: unknown[] }>;
}

const watch = (emulator: RunningEmulator, id: string, streamUrl: string, namespace = 'live') =>
  call(emulator, 'POST', `/v1/streams/${namespace}`, { json: { id, stream_url: streamUrl } });
const sendParts = (emulator: RunningEmulator, id: string, data: unknown[], namespace = 'live') =>
  call(emulator, 'POST', `/v1/streams/${namespace}/parts`, { json: { id, data } });
const inspect = async (emulator: RunningEmulator, id: string, namespace = 'live') => {
  const reply = await call(emulator, 'GET', `/_emulator/streams/${namespace}/${encodeURIComponent(id)}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as StreamView;
};
const streamIds = async (emulator: RunningEmulator, namespace = 'live') => {
  const reply = await call(emulator, 'GET', `/_emulator/streams/${namespace}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return (reply.body as { streams: string[] }).streams;
};

function assertAccepted(reply: { status: number; body: unknown }): void {
  assert.equal(reply.status, 202, JSON.stringify(reply.body));
  const { requestId, status, ...rest } = reply.body as Record<string, unknown>;
  assert.match(String(requestId), /^req_[0-9a-f]{24}$/);
  assert.equal(status, 'accepted');
  assert.deepEqual(rest, {});
}

/** Starts an emulator, runs `use`, and closes it whatever happens. */
async function withEmulator<T>(options: EmulatorOptions, use: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startTestEmulator(options);
  try {
    return await use(emulator);
  } finally {
    await emulator.close();
  }
}

describe('emulator: POST /v1/streams/{namespace}', () => {
  const emulator = useTestEmulator();

  test('accepts a stream to monitor with 202 {requestId, status: accepted}; each answer has its own request id', async () => {
    const first = await watch(emulator, 'show-42', 'https://example.com/live/42.m3u8');
    assertAccepted(first);
    const second = await watch(emulator, 'show-43', 'rtmp://ingest.example.com/live/43');
    assertAccepted(second);
    assert.notEqual((first.body as { requestId: string }).requestId, (second.body as { requestId: string }).requestId);
    assert.deepEqual(await inspect(emulator, 'show-42'), { id: 'show-42', stream_url: 'https://example.com/live/42.m3u8', parts: [] });
  });

  test('each accepted scheme: http, https, rtmp, rtmps, rtsp, srt', async () => {
    for (const url of ['http://a.example/x', 'https://a.example/x', 'rtmp://a.example/x', 'rtmps://a.example/x', 'rtsp://a.example/x', 'srt://10.0.0.1:9000']) {
      assertAccepted(await watch(emulator, url, url));
    }
  });

  test('watching a stream again replaces its address', async () => {
    await watch(emulator, 's', 'https://example.com/one.m3u8');
    await watch(emulator, 's', 'https://example.com/two.m3u8');
    assert.equal((await inspect(emulator, 's')).stream_url, 'https://example.com/two.m3u8');
    assert.deepEqual(await streamIds(emulator), ['s']);
  });

  test('a 400 names the failing field: missing, empty, wrong type, not an accepted URL, unknown field', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ stream_url: 'https://a.example/x' }, 'id', /^id: is required: expected a non-empty string/],
      [{ id: '', stream_url: 'https://a.example/x' }, 'id', /^id: expected a non-empty string/],
      [{ id: 7, stream_url: 'https://a.example/x' }, 'id', /^id: expected a non-empty string/],
      [{ id: 's' }, 'stream_url', /^stream_url: is required: expected an absolute http, https, rtmp, rtmps, rtsp or srt URL$/],
      [{ id: 's', stream_url: 'ftp://a.example/x' }, 'stream_url', /^stream_url: expected an absolute http, https, rtmp, rtmps, rtsp or srt URL$/],
      [{ id: 's', stream_url: '/live/42.m3u8' }, 'stream_url', /^stream_url: expected an absolute/],
      [{ id: 's', stream_url: 'https://a.example/x', url: 'x' }, 'url', /^url: unknown field$/],
      [['s'], '(body)', /^\(body\): expected a JSON object with id and stream_url$/],
    ];
    for (const [json, field, message] of cases) {
      const error = assertError(await call(emulator, 'POST', '/v1/streams/live', { json }), 400, field);
      assert.match(error.message, message, JSON.stringify(json));
    }
    assert.match(assertError(await call(emulator, 'POST', '/v1/streams/live'), 400).message, /the request body is empty/);
    assertError(await call(emulator, 'POST', '/v1/streams/live', { body: '{"id":' }), 400);
    assert.deepEqual(await streamIds(emulator), [], 'nothing refused is stored');
  });

  test('the namespace is checked as data routes check it', async () => {
    const error = assertError(await watch(emulator, 's', 'https://a.example/x', 'a%20b'), 404);
    assert.match(error.message, /^no namespace "a b": a namespace name has lowercase letters/);
  });
});

describe('emulator: POST /v1/streams/{namespace}/parts', () => {
  const emulator = useTestEmulator();

  test('accepts parts with 202 {requestId, status: accepted} and keeps them as sent, in arrival order, across requests', async () => {
    assertAccepted(await sendParts(emulator, 'show-42', [chat('hello'), transcript('welcome back', 'host')]));
    assertAccepted(await sendParts(emulator, 'show-42', [frame(), audio()]));
    const stream = await inspect(emulator, 'show-42');
    assert.deepEqual(stream, {
      id: 'show-42',
      stream_url: null,
      parts: [
        { ...chat('hello'), labels: [] },
        { ...transcript('welcome back', 'host'), labels: [] },
        { ...frame(), labels: [] },
        { ...audio(), labels: [] },
      ],
    });
    assert.deepEqual(Object.keys(stream.parts[0]!), [...Object.keys(chat('x')), 'labels'], 'the part as sent, then its labels');
  });

  test('a stream need not exist before its parts; watching it later keeps them', async () => {
    await sendParts(emulator, 'early', [transcript('one')]);
    assert.deepEqual(await streamIds(emulator), ['early']);
    await watch(emulator, 'early', 'https://example.com/early.m3u8');
    await sendParts(emulator, 'early', [transcript('two')]);
    const stream = await inspect(emulator, 'early');
    assert.equal(stream.stream_url, 'https://example.com/early.m3u8');
    assert.deepEqual(stream.parts.map((part) => part.text), ['one', 'two']);
  });

  test('watch, then parts', async () => {
    await watch(emulator, 'show-42', 'https://example.com/live/42.m3u8');
    await sendParts(emulator, 'show-42', [chat('hi')]);
    const stream = await inspect(emulator, 'show-42');
    assert.equal(stream.stream_url, 'https://example.com/live/42.m3u8');
    assert.equal(stream.parts.length, 1);
  });

  test('chat and transcript text go through the classifier; audio and frame links get no labels', async () => {
    await sendParts(emulator, 's', [chat('I will kill you'), transcript('buy now, free money', 'host'), chat('mail me at ann@example.com'), frame('https://cdn.example.com/kill.jpg'), audio(), chat('hello there')]);
    const labels = (await inspect(emulator, 's')).parts.map((part) => part.labels);
    assert.deepEqual(labels, [
      [{ label: 'violence', score: 0.85, decision: 'match' }],
      [{ label: 'spam', score: 0.99, decision: 'match' }],
      [{ label: 'pii', score: 0.85, decision: 'match' }],
      [],
      [],
      [],
    ]);
  });

  test('only the text is classified, not the sender or the speaker', async () => {
    await sendParts(emulator, 's', [{ ...chat('hello'), sender_display_name: 'stupid idiot' }, transcript('hello', 'killer kill')]);
    assert.deepEqual((await inspect(emulator, 's')).parts.map((part) => part.labels), [[], []]);
  });

  test('streams are kept apart by namespace and id', async () => {
    await sendParts(emulator, 'a', [transcript('in live a')]);
    await sendParts(emulator, 'b', [transcript('in live b')]);
    await sendParts(emulator, 'a', [transcript('in other a')], 'other');
    assert.deepEqual((await inspect(emulator, 'a')).parts.map((part) => part.text), ['in live a']);
    assert.deepEqual((await inspect(emulator, 'a', 'other')).parts.map((part) => part.text), ['in other a']);
    assert.deepEqual(await streamIds(emulator), ['a', 'b']);
    assert.deepEqual(await streamIds(emulator, 'other'), ['a']);
  });

  test('concurrent requests are each kept whole, and every part exactly once', async () => {
    const requests = Array.from({ length: 20 }, (_, request) => Array.from({ length: 50 }, (_, index) => transcript(`r${request} p${index} ${'x'.repeat(2000)}`)));
    const replies = await Promise.all(requests.map((data) => sendParts(emulator, 's', data)));
    for (const reply of replies) assertAccepted(reply);
    const texts = (await inspect(emulator, 's')).parts.map((part) => String(part.text).split(' ').slice(0, 2).join(' '));
    assert.equal(texts.length, 1000);
    const requestsInOrder = [...new Set(texts.map((text) => text.split(' ')[0]))];
    assert.equal(requestsInOrder.length, 20, 'each request appears once, its parts together');
    assert.deepEqual(texts, requestsInOrder.flatMap((request) => Array.from({ length: 50 }, (_, index) => `${request} p${index}`)));
  });

  test('a 400 names the failing field, by part index; nothing of a refused request is stored', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ data: [chat('x')] }, 'id', /^id: is required: expected a non-empty string \(your identifier of the stream\)$/],
      [{ id: '', data: [chat('x')] }, 'id', /^id: expected a non-empty string/],
      [{ id: 's' }, 'data', /^data: is required: expected an array of stream parts$/],
      [{ id: 's', data: chat('x') }, 'data', /^data: expected an array of stream parts$/],
      [{ id: 's', data: [] }, 'data', /^data: expected at least one part$/],
      [{ id: 's', data: [chat('x')], stream_url: 'https://a.example/x' }, 'stream_url', /^stream_url: unknown field$/],
      [{ id: 's', data: [chat('ok'), chat('ok'), chat('ok'), { ...chat('x'), text: '' }] }, 'data[3].text', /^data\[3\]\.text: expected a non-empty string \(the message\)$/],
      [{ id: 's', data: [{ type: 'video', url: 'x' }] }, 'data[0].type', /^data\[0\]\.type: unknown part type "video": expected one of audio_url, frame_image_url, chat_message, transcript$/],
      [{ id: 's', data: [{ timestamp: AT }] }, 'data[0].type', /^data\[0\]\.type: is required: one of audio_url/],
      [{ id: 's', data: ['hello'] }, 'data[0]', /^data\[0\]: expected a JSON object \(one stream part\)$/],
      [{ id: 's', data: [{ ...frame(), url: 'rtmp://a.example/x' }] }, 'data[0].url', /^data\[0\]\.url: expected an absolute http or https URL$/],
      [{ id: 's', data: [{ type: 'audio_url', timestamp: AT }] }, 'data[0].url', /^data\[0\]\.url: is required: expected an absolute http or https URL$/],
      [{ id: 's', data: [{ ...audio(), timestamp: '2026-11-21T10:00:00' }] }, 'data[0].timestamp', /^data\[0\]\.timestamp: expected an ISO 8601 date-time with a time zone/],
      [{ id: 's', data: [{ ...transcript('x'), speaker: 3 }] }, 'data[0].speaker', /^data\[0\]\.speaker: expected a non-empty string \(who spoke\), or no speaker field$/],
      [{ id: 's', data: [{ ...chat('x'), sender_id: undefined }] }, 'data[0].sender_id', /^data\[0\]\.sender_id: is required/],
      [{ id: 's', data: [{ ...chat('x'), labels: [] }] }, 'data[0].labels', /^data\[0\]\.labels: unknown field$/],
      [[chat('x')], '(body)', /^\(body\): expected a JSON object with id and data$/],
    ];
    for (const [json, field, message] of cases) {
      const error = assertError(await call(emulator, 'POST', '/v1/streams/live/parts', { json }), 400, field);
      assert.match(error.message, message, JSON.stringify(json));
    }
    const both = assertError(await sendParts(emulator, 's', [{ ...chat('x'), text: 3 }, transcript('ok'), frame('nope')]), 400, 'data[0].text');
    assert.match(both.message, /; data\[2\]\.url: expected an absolute http or https URL$/, 'every problem is in the message');
    assert.match(assertError(await call(emulator, 'POST', '/v1/streams/live/parts'), 400).message, /the request body is empty/);
    assertError(await call(emulator, 'POST', '/v1/streams/live/parts', { body: 'not json' }), 400);
    assert.deepEqual(await streamIds(emulator), []);
    assertError(await call(emulator, 'GET', '/_emulator/streams/live/s'), 404);
  });

  test('the namespace is checked as data routes check it', async () => {
    assertError(await sendParts(emulator, 's', [chat('x')], 'a%2Fb'), 404);
  });

  test('over 6 MB is a 413; another method is a 405 naming POST', async () => {
    const big = Array.from({ length: 700 }, () => transcript('x'.repeat(10_000)));
    assertError(await sendParts(emulator, 's', big), 413);
    const error = assertError(await call(emulator, 'GET', '/v1/streams/live/parts'), 405);
    assert.match(error.message, /allowed: POST$/);
    assert.deepEqual(await streamIds(emulator), []);
  });

  test('a body that is not JSON by its Content-Type is a 415', async () => {
    const reply = await call(emulator, 'POST', '/v1/streams/live/parts', { body: JSON.stringify({ id: 's', data: [chat('x')] }), headers: { 'Content-Type': 'text/plain' } });
    assertError(reply, 415);
  });
});

describe('emulator: stream routes and credentials', () => {
  const emulator = useTestEmulator();

  test('every stream route needs a credential; the inspection routes need the API key itself', async () => {
    for (const [method, path, json] of [
      ['POST', '/v1/streams/live', { id: 's', stream_url: 'https://a.example/x' }],
      ['POST', '/v1/streams/live/parts', { id: 's', data: [chat('x')] }],
      ['GET', '/_emulator/streams/live', undefined],
      ['GET', '/_emulator/streams/live/s', undefined],
    ] as const) {
      assertError(await call(emulator, method, path, { json, key: null }), 401);
      assertError(await call(emulator, method, path, { json, key: 'sk_wrong' }), 401);
    }
    const token = (await call(emulator, 'POST', '/v1/access_tokens', { json: {} })).body as { access_token: string };
    assertAccepted(await call(emulator, 'POST', '/v1/streams/live/parts', { json: { id: 's', data: [chat('x')] }, key: token.access_token }));
    assertError(await call(emulator, 'GET', '/_emulator/streams/live/s', { key: token.access_token }), 403);
    assertError(await call(emulator, 'GET', '/_emulator/streams/live', { key: token.access_token }), 403);
  });

  test('stream requests are in the request log', async () => {
    await sendParts(emulator, 's', [chat('x')]);
    const log = (await call(emulator, 'GET', '/_emulator/requests')).body as { requests: Array<{ method: string; path: string; status: number }> };
    assert.deepEqual(log.requests.map(({ method, path, status }) => ({ method, path, status })), [{ method: 'POST', path: '/v1/streams/live/parts', status: 202 }]);
  });
});

describe('emulator: stream inspection', () => {
  const emulator = useTestEmulator();

  test('a stream never seen is a 404 naming it; a namespace never seen lists no streams', async () => {
    const error = assertError(await call(emulator, 'GET', '/_emulator/streams/live/nope'), 404);
    assert.equal(error.message, 'no stream "nope" in namespace "live"; streams appear when watched or when their first parts arrive');
    assert.deepEqual(await streamIds(emulator, 'never'), []);
  });

  test('lists the stream ids in the order first seen, whether watched or sent parts first', async () => {
    await sendParts(emulator, 'c', [chat('x')]);
    await watch(emulator, 'a', 'https://a.example/x');
    await sendParts(emulator, 'b', [chat('x')]);
    await watch(emulator, 'c', 'https://a.example/c');
    await sendParts(emulator, 'a', [chat('x')]);
    assert.deepEqual(await streamIds(emulator), ['c', 'a', 'b']);
  });

  test('stream ids that are no file name: slashes, dots, unicode, newlines', async () => {
    const ids = ['a/b', '../../etc', 'ünï 🎥', 'line\nbreak', 'x'.repeat(1000)];
    for (const id of ids) await sendParts(emulator, id, [transcript(id)]);
    assert.deepEqual(await streamIds(emulator), ids);
    for (const id of ids) assert.deepEqual((await inspect(emulator, id)).parts.map((part) => part.text), [id]);
  });

  test('a stream of many parts is sent whole, as a stream of JSON', async () => {
    const batch = Array.from({ length: 500 }, (_, index) => transcript(`line ${index}`));
    for (let request = 0; request < 10; request++) await sendParts(emulator, 'long', batch);
    const reply = await fetch(`${emulator.baseUrl}/_emulator/streams/live/long`, { headers: { Authorization: `Bearer ${emulator.apiKey}` } });
    assert.equal(reply.headers.get('transfer-encoding'), 'chunked', 'streamed, not built as one string first');
    assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
    const stream = (await reply.json()) as StreamView;
    assert.equal(stream.parts.length, 5000);
    assert.equal(stream.parts[4999]!.text, 'line 499');
  });

  test('the inspection routes check the namespace', async () => {
    assertError(await call(emulator, 'GET', '/_emulator/streams/a%20b'), 404);
    assertError(await call(emulator, 'GET', '/_emulator/streams/a%20b/s'), 404);
  });

  test('/_emulator/reset forgets every stream', async () => {
    await watch(emulator, 'a', 'https://a.example/x');
    await sendParts(emulator, 'b', [chat('x')]);
    await call(emulator, 'POST', '/_emulator/reset');
    assert.deepEqual(await streamIds(emulator), []);
    assertError(await call(emulator, 'GET', '/_emulator/streams/live/b'), 404);
    await sendParts(emulator, 'b', [chat('after')]);
    assert.deepEqual((await inspect(emulator, 'b')).parts.map((part) => part.text), ['after']);
  });
});

describe('emulator: streams under --data-dir', () => {
  test('a restarted emulator on the same directory still has the streams, their addresses and parts', async () => {
    const dataDir = tempDir('csafe-emulator-streams-');
    await withEmulator({ dataDir }, async (emulator) => {
      await watch(emulator, 'show-42', 'https://example.com/live/42.m3u8');
      await sendParts(emulator, 'show-42', [chat('kill'), frame()]);
      await sendParts(emulator, 'early', [transcript('hi')]);
    });
    await withEmulator({ dataDir }, async (emulator) => {
      assert.deepEqual(await streamIds(emulator), ['show-42', 'early']);
      await sendParts(emulator, 'show-42', [transcript('after the restart')]);
      const stream = await inspect(emulator, 'show-42');
      assert.equal(stream.stream_url, 'https://example.com/live/42.m3u8');
      assert.deepEqual(stream.parts.map((part) => part.type), ['chat_message', 'frame_image_url', 'transcript']);
      assert.deepEqual(stream.parts[0]!.labels, [{ label: 'violence', score: 0.85, decision: 'match' }]);
    });
  });
});

describe('emulator: stream parts on disk', () => {
  test('the parts of each request are appended to the stream JSONL file as they arrive, one line each, labels included', async () => {
    const dataDir = tempDir('csafe-emulator-streams-');
    await withEmulator({ dataDir }, async (emulator) => {
      const partsFile = () => {
        const files = readdirSync(join(dataDir, 'streams'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('parts.jsonl'));
        assert.equal(files.length, 1);
        return readFileSync(join(dataDir, 'streams', files[0]!), 'utf8');
      };
      await sendParts(emulator, 's', [chat('kill'), frame()]);
      assert.deepEqual(partsFile().split('\n'), [JSON.stringify({ ...chat('kill'), labels: [{ label: 'violence', score: 0.85, decision: 'match' }] }), JSON.stringify({ ...frame(), labels: [] }), '']);
      await sendParts(emulator, 's', [transcript('more')]);
      assert.equal(partsFile().split('\n').length, 4);
    });
  });
});

describe('emulator: faults and latency on stream routes', () => {
  test('429 and 503 faults refuse both stream endpoints without storing anything; /_emulator is never faulted', async () => {
    for (const kind of ['429', '503'] as const) {
      await withEmulator({ faults: { rate: 1, kinds: [kind], seed: 1, delayMs: 0 } }, async (emulator) => {
        assertError(await watch(emulator, 's', 'https://a.example/x'), Number(kind));
        assertError(await sendParts(emulator, 's', [chat('x')]), Number(kind));
        assert.deepEqual(await streamIds(emulator), []);
      });
    }
  });

  test('a reset fault stores the parts, then cuts the response; a timeout fault stores them, then holds the answer', async () => {
    await withEmulator({ faults: { rate: 1, kinds: ['reset'], seed: 1, delayMs: 0 } }, async (emulator) => {
      await assert.rejects(sendParts(emulator, 's', [chat('x')]));
      assert.equal((await inspect(emulator, 's')).parts.length, 1, 'processed before the cut');
    });
    await withEmulator({ faults: { rate: 1, kinds: ['timeout'], seed: 1, delayMs: 60_000 } }, async (emulator) => {
      let answered = false;
      const watching = watch(emulator, 's', 'https://a.example/x').then(() => (answered = true), () => undefined);
      await waitFor(async () => (await call(emulator, 'GET', '/_emulator/streams/live/s')).status === 200, { what: 'the stream to be stored' });
      assert.equal(answered, false, 'stored, but the answer is held');
      await emulator.close();
      await watching;
    });
  });

  test('latency holds stream answers back', async () => {
    await withEmulator({ latencyMs: 15_000 }, async (emulator) => {
      let answered = false;
      const sending = sendParts(emulator, 's', [chat('x')]).then(() => (answered = true), () => undefined);
      await waitFor(async () => (await inspect(emulator, 's').catch(() => undefined))?.parts.length === 1, { what: 'the parts to be stored' });
      assert.equal(answered, false, 'stored, but the answer is still held back');
      await emulator.close();
      await sending;
    });
  });
});
