import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentResponseSchema, type LabelResult } from '../../src/schemas/content.js';
import { encodePng, pngOfLength } from './png.js';
import { assertError, call, exampleBase64, type Reply, useTestEmulator } from './support.js';

const text = (value: string) => ({ type: 'text', text: value });
const image = (data: string) => ({ type: 'image', source: { type: 'base64', data } });
const request = (...content: unknown[]) => ({ user_id: 'user_1', content });

/** base64Length characters of base64 whose bytes start like a PNG: passes the format check, sized for limit tests. */
const pngLikeBase64 = (base64Length: number) => pngOfLength((base64Length / 4) * 3).toString('base64');

function labelsOf(reply: Reply): LabelResult[] {
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return contentResponseSchema.parse(reply.body).labels;
}

const classifierLabel = (labels: LabelResult[], name: string) => labels.find((l) => l.type === 'classifier' && l.label === name);

describe('POST /v1/content, version 2026-08-11', () => {
  const emulator = useTestEmulator();

  const classify = (json: unknown, headers: Record<string, string> = {}) =>
    call(emulator, 'POST', '/v1/content', { json, headers });

  test('returns the spec shape with match, review and not_match labels', async () => {
    const reply = await classify(request(text('I will kill you, stupid')));
    const body = contentResponseSchema.parse(reply.body);
    assert.equal(body.user_id, 'user_1');
    assert.equal(body.version, '2026-08-11');
    assert.match(body.content_id ?? '', /^cnt_[0-9a-f]{24}$/);
    assert.deepEqual(Object.keys(body).sort(), ['content_id', 'labels', 'user_id', 'version']);
    assert.deepEqual(classifierLabel(body.labels, 'violence'), {
      type: 'classifier', label: 'violence', decision: 'match', escalation: 'none', score: 0.85,
    });
    assert.deepEqual(classifierLabel(body.labels, 'harassment'), {
      type: 'classifier', label: 'harassment', decision: 'review', escalation: 'completed', score: 0.55,
    });
    assert.deepEqual(classifierLabel(body.labels, 'spam'), {
      type: 'classifier', label: 'spam', decision: 'not_match', escalation: 'none', score: 0,
    });
  });

  test('the same request always gets the same service content_id, even when the caller sends one', async () => {
    const first = contentResponseSchema.parse((await classify({ user_id: 'u', content: [text('a')] })).body);
    const reordered = contentResponseSchema.parse((await classify({ content: [{ text: 'a', type: 'text' }], user_id: 'u' })).body);
    const other = contentResponseSchema.parse((await classify({ user_id: 'u', content: [text('b')] })).body);
    const withOwnId = contentResponseSchema.parse((await classify({ user_id: 'u', content: [text('a')], content_id: 'post_9' })).body);
    assert.equal(first.content_id, reordered.content_id);
    assert.notEqual(first.content_id, other.content_id);
    assert.match(withOwnId.content_id ?? '', /^cnt_/);
  });

  test('an explicit Service-Version 2026-08-11 is served; any other value is a 400 naming the header', async () => {
    const current = contentResponseSchema.parse((await classify(request(text('hi')), { 'Service-Version': '2026-08-11' })).body);
    assert.equal(current.version, '2026-08-11');
    const error = assertError(await classify(request(text('hi')), { 'Service-Version': '2026-09-01' }), 400, 'Service-Version');
    assert.match(error.message, /2026-09-01/);
  });

  test('an image-only request leaves every text label unscored (score null)', async () => {
    const labels = labelsOf(await classify(request(image(exampleBase64('photo.png')))));
    assert.equal(labels.length, 6);
    for (const label of labels) {
      assert.equal(label.type, 'classifier');
      assert.equal(label.score, null);
      assert.equal(label.decision, 'not_match');
    }
  });

  test('known-bad.png matches the built-in reference set, also as a data URI', async () => {
    const dataUri = `data:image/png;base64,${exampleBase64('known-bad.png')}`;
    const labels = labelsOf(await classify(request(text('hello'), image(dataUri))));
    assert.deepEqual(labels.at(-1), {
      type: 'similarity', label: 'reference_set_match', decision: 'match', escalation: 'none', score: 1, set_id: 'rs_emulator_known_bad',
    });
    assert.equal(labels.filter((label) => label.type === 'similarity').length, 1);
  });

  test('a reference set added through /_emulator/reference_sets matches its images', async () => {
    const blue = encodePng(8, 8, () => [0, 0, 255]).toString('base64');
    assert.equal(labelsOf(await classify(request(image(blue)))).some((l) => l.type === 'similarity'), false);
    const added = await call(emulator, 'POST', '/_emulator/reference_sets', { json: { set_id: 'rs_blue', images: [blue] } });
    assert.deepEqual(added.body, { set_id: 'rs_blue', images: 1 });
    const similarity = labelsOf(await classify(request(image(blue)))).filter((l) => l.type === 'similarity');
    assert.deepEqual(similarity.map((l) => l.set_id), ['rs_blue']);
  });

  test('malformed base64 and bytes that are no image are 400s naming the part', async () => {
    const malformed = request(text('hi'), image('not base64!'));
    assertError(await classify(malformed), 400, 'content[1].source.data');
    const notAnImage = request(image(Buffer.from('just some text').toString('base64')));
    const error = assertError(await classify(notAnImage), 400, 'content[0].source.data');
    assert.match(error.message, /PNG, JPEG, GIF or WebP/);
  });

  test('GIF, JPEG and WebP magic bytes are accepted', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00\x3b', 'latin1');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0xff, 0xd9]);
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
    const images = [gif, jpeg, webp].map((bytes) => image(bytes.toString('base64')));
    assert.equal((await classify(request(...images))).status, 200);
  });

  test('an image cut short is a 400 naming the image and what it lacks', async () => {
    const png = encodePng(2, 2, () => [9, 9, 9]);
    const cut = [png.subarray(0, png.length - 5), Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])];
    const reply = await classify(request(text('hi'), ...cut.map((bytes) => image(bytes.toString('base64')))));
    assert.equal(reply.status, 400);
    const message = JSON.stringify(reply.body);
    for (const [index, lack] of [[1, 'PNG image cut short (its chunks end before IEND)'], [2, 'GIF image cut short'], [3, 'JPEG image cut short']] as const) {
      assert.match(message, new RegExp(`content\\[${index}\\]\\.source\\.data[^"]*${lack.replace(/[()]/g, '\\$&')}`));
    }
  });

  test('invalid bodies are 400s naming the field', async () => {
    assertError(await classify({ content: [text('hi')] }), 400, 'user_id');
    assertError(await classify(request()), 400, 'content');
    assertError(await classify(request({ type: 'video', url: 'x' })), 400, 'content[0].type');
    assertError(await classify(request({ ...text('hi'), colour: 'red' })), 400, 'content[0].colour');
    assertError(await call(emulator, 'POST', '/v1/content'), 400, '(body)');
  });

  test('at most 20 images', async () => {
    const photo = image(exampleBase64('photo.png'));
    assert.equal((await classify(request(...Array.from({ length: 20 }, () => photo)))).status, 200);
    const error = assertError(await classify(request(...Array.from({ length: 21 }, () => photo))), 400, 'content');
    assert.match(error.message, /at most 20 images/);
  });

  test('at most 5,000,000 bytes of base64 per image', async () => {
    assert.equal((await classify(request(image(pngLikeBase64(5_000_000))))).status, 200);
    assertError(await classify(request(text('hi'), image(pngLikeBase64(5_000_004)))), 400, 'content[1].source.data');
  });

  test('at most 8,000 bytes of serialised metadata', async () => {
    const within = { ...request(text('hi')), metadata: { note: 'x'.repeat(7_989) } }; // {"note":"…"} = 8,000 bytes
    assert.equal((await classify(within)).status, 200);
    const over = { ...request(text('hi')), metadata: { note: 'x'.repeat(7_990) } };
    assertError(await classify(over), 400, 'metadata');
  });

  test('a body over 6,000,000 bytes is 413, declared or streamed', async () => {
    const oversized = JSON.stringify(request(image(pngLikeBase64(6_000_000))));
    assertError(await call(emulator, 'POST', '/v1/content', { body: oversized }), 413);
    const chunks = [oversized.slice(0, 3_000_000), oversized.slice(3_000_000)];
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const response = await fetch(`${emulator.baseUrl}/v1/content`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${emulator.apiKey}` },
      body: streamed,
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 413);
    assert.equal(response.headers.get('connection'), 'close');
    await response.arrayBuffer();
  });

  test('quirk unknown_values adds fields and values the spec does not list', async () => {
    await call(emulator, 'POST', '/_emulator/quirks', { json: { unknown_values: true } });
    const reply = await classify(request(text('hi'), image(exampleBase64('known-bad.png'))));
    const body = contentResponseSchema.parse(reply.body);
    assert.ok(body['x_emulator']);
    assert.ok(body.labels.every((label) => typeof label['category'] === 'string'));
    assert.deepEqual(body.labels.at(-1), {
      type: 'classifier', label: 'emulator_unknown', decision: 'needs_context', escalation: 'pending', score: 0.42, category: 'emulator_category',
    });
  });
});
