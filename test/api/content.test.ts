import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { requestProblems, toLegacyRequest } from '../../src/api/content.js';
import { parseResponse } from '../../src/api/responses.js';
import { contentResponseSchema, legacyContentResponseSchema } from '../../src/schemas/content.js';
import { describeProblem } from '../../src/schemas/issues.js';
import { encodePng, pngOfLength } from '../emulator/png.js';

const image = (bytes: number) => ({ type: 'image' as const, source: { type: 'base64' as const, data: 'A'.repeat(bytes) } });
const problems = (request: unknown, version: '2026-08-11' | '2026-08-05' = '2026-08-11') =>
  requestProblems(request as never, version).map(describeProblem);

describe('content request checks', () => {
  it('accepts a valid request', () => {
    assert.deepEqual(problems({ content: [{ type: 'text', text: 'hi' }], user_id: 'u1' }), []);
  });

  it('names the field of a schema problem, and unknown fields by their own path', () => {
    assert.deepEqual(problems({ content: [{ type: 'text', text: 5 }], user_id: 'u1' }), ['content[0].text: Invalid input: expected string, received number']);
    assert.deepEqual(problems({ content: [{ type: 'text', text: 'a', colour: 'red' }], user_id: 'u1' }), ['content[0].colour: unknown field']);
    assert.deepEqual(problems({ content: [{ type: 'text', text: 'a' }], userId: 'u1' }), ['user_id: missing', 'userId: unknown field; did you mean "user_id"?']);
    assert.deepEqual(problems({ content: [{ type: 'text', txt: 'a' }], user_id: 'u1' }).at(-1), 'content[0].txt: unknown field; did you mean "text"?');
    assert.deepEqual(problems({ content: [], user_id: '' }), ['content: expected at least one content part', 'user_id: expected a non-empty user id']);
  });

  it('enforces 20 images, 5 MB of base64 each, and 8 KB of metadata', () => {
    assert.deepEqual(problems({ content: Array.from({ length: 21 }, () => image(8)), user_id: 'u' }), ['content: at most 20 images per request, got 21']);
    assert.deepEqual(problems({ content: [image(5_000_004)], user_id: 'u' }), ['content[0].source.data: image is 5000004 bytes of base64, over the limit of 5000000']);
    const wholePngAtTheLimit = { type: 'image', source: { type: 'base64', data: pngOfLength(3_750_000).toString('base64') } };
    assert.deepEqual(problems({ content: [wholePngAtTheLimit], user_id: 'u' }), []);
    assert.match(problems({ content: [{ type: 'text', text: 'a' }], user_id: 'u', metadata: { k: 'x'.repeat(8000) } })[0]!, /^metadata: is 8008 bytes serialized, over the limit of 8000$/);
  });

  it('enforces 6 MB per request', () => {
    assert.match(problems({ content: [image(4_000_000), image(2_000_000)], user_id: 'u' })[0]!, /request is \d+ bytes, over the limit of 6000000/);
  });

  it('enforces 16,000 characters on the previous version only, counting characters not bytes', () => {
    const request = { content: [{ type: 'text', text: 'é'.repeat(16_001) }], user_id: 'u' };
    assert.deepEqual(problems(request), []);
    assert.deepEqual(problems(request, '2026-08-05'), ['content[0].text: text is 16001 characters, over the limit of 16000 for version 2026-08-05']);
    assert.deepEqual(problems({ content: [{ type: 'text', text: 'é'.repeat(16_000) }], user_id: 'u' }, '2026-08-05'), []);
  });

  it('refuses image data that decodes to no whole PNG, JPEG, GIF or WebP, as the service does, in either version', () => {
    const notAnImage = { type: 'image', source: { type: 'base64', data: Buffer.from('hello').toString('base64') } };
    const cutShort = { type: 'image', source: { type: 'base64', data: `data:image/png;base64,${encodePng(2, 2, () => [0, 0, 0]).subarray(0, 40).toString('base64')}` } };
    for (const version of ['2026-08-11', '2026-08-05'] as const) {
      assert.deepEqual(problems({ content: [{ type: 'text', text: 'a' }, notAnImage, cutShort], user_id: 'u' }, version), [
        'content[1].source.data: base64 data does not decode to PNG, JPEG, GIF or WebP image bytes',
        'content[2].source.data: base64 data is a PNG image cut short (its chunks end before IEND): the file is damaged or was not copied whole',
      ]);
    }
  });

  it('builds the previous version shape', () => {
    assert.deepEqual(
      toLegacyRequest({ content: [{ type: 'text', text: 'a' }, image(8), { type: 'text', text: 'b' }], user_id: 'u', content_id: 'c', metadata: { k: 1 } }),
      { user_id: 'u', content_id: 'c', text: 'a\n\nb', images: ['AAAAAAAA'], metadata: { k: 1 } },
    );
  });
});

describe('content responses are read tolerantly', () => {
  it('refuses a body without the labels or policies array, instead of reading it as no labels', () => {
    assert.throws(() => parseResponse(contentResponseSchema, { something: 'else' }, 'POST /v1/content'), /^UnexpectedResponseError: POST \/v1\/content: unexpected response from the service: labels: /);
    assert.throws(() => parseResponse(contentResponseSchema, { labels: [{ label: 'x' }] }, 'POST /v1/content'), /labels\[0\]\.type: /);
    assert.throws(() => parseResponse(legacyContentResponseSchema, null, 'POST /v1/content'), /service: \(body\): /);
  });
});
