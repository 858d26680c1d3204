import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addData, getRecord, manualClock } from './data-support.js';
import { assertError, call, resetEmulator, useTestEmulator } from './support.js';

const SETTINGS = {
  schema: {
    photo: { content_type: 'image_url', display_hint: { type: 'primary_image_url' } },
    title: { display_hint: { type: 'title' }, field_limit: 12 },
    tags: { field_limit: 2 },
    posted: { content_type: 'datetime' },
    seller: { content_type: 'metadata' },
  },
};

describe('emulator: namespace settings and data', () => {
  const clock = manualClock();
  const emulator = useTestEmulator({ now: clock.now, processingDelayMs: 1000 });
  const putSettings = (namespace: string, body: unknown) => call(emulator, 'PUT', `/v1/data/${namespace}/settings`, { json: body });

  test('settings are created or replaced, answering the namespace and "updated"', async () => {
    for (const body of [SETTINGS, { schema: {} }]) {
      const reply = await putSettings('listings', body);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, { namespace: 'listings', status: 'updated' });
    }
  });

  test('the current docs\' vocabulary is taken beside the spec\'s; what neither has is refused', async () => {
    const newer = {
      schema: {
        song: { content_type: 'audio_url', display_hint: { type: 'audio_url', name: 'Song', order: 2 } },
        offer: { content_type: 'card', display_hint: { type: 'card' } },
        posted: { content_type: 'datetime', display_hint: { type: 'date' } },
        thread: { display_hint: { type: 'chat_thread', order: 0 } },
        seller: { belongs_to: 'sellers', display_hint: { name: 'Seller' } },
        reply_to: { display_hint: { type: 'email.reply_to' } },
      },
    };
    assert.equal((await putSettings('listings', newer)).status, 200);
    for (const [bad, field] of [
      [{ x: { content_type: 'podcast_url' } }, 'schema.x.content_type'],
      [{ x: { display_hint: { type: 'banner' } } }, 'schema.x.display_hint.type'],
      [{ x: { display_hint: { order: -1 } } }, 'schema.x.display_hint.order'],
      [{ x: { display_hint: { order: 1.5 } } }, 'schema.x.display_hint.order'],
      [{ x: { belongs_to: '' } }, 'schema.x.belongs_to'],
      [{ x: { display_hint: { type: 'title', colour: 'red' } } }, 'schema.x.display_hint.colour'],
    ] as const) {
      assertError(await putSettings('listings', { schema: bad }), 400, field);
    }
  });

  test('POST …/{ns} and POST …/requests/upload-url take a schema, applied as PUT settings applies it; a bad one is a 400 naming it', async () => {
    const schema = { photo: { content_type: 'image_url' } };
    assert.equal((await call(emulator, 'POST', '/v1/data/withschema', { json: { data: [{ id: 'a' }], schema } })).status, 202);
    const issued = await call(emulator, 'POST', '/v1/data/uploads/requests/upload-url', { json: { schema } });
    assert.equal(issued.status, 200);
    assert.deepEqual(Object.keys(issued.body as object).sort(), ['expires_at', 'objectKey', 'requestId', 'status', 'upload_url']);
    assert.equal((await call(emulator, 'POST', '/v1/data/uploads/requests/upload-url')).status, 200, 'the schema is optional');
    assertError(await call(emulator, 'POST', '/v1/data/withschema', { json: { data: [{ id: 'a' }], schema: { photo: { content_type: 'jpg' } } } }), 400, 'schema.photo.content_type');
    assertError(await call(emulator, 'POST', '/v1/data/uploads/requests/upload-url', { json: { schema, file: 'x' } }), 400, 'file');
  });

  test('invalid settings are a 400 naming every bad member by its path', async () => {
    const reply = await putSettings('listings', {
      schema: { photo: { content_type: 'picture', field_limit: -1 }, title: { display_hint: { type: 'huge' } }, x: { colour: 'red' } },
    });
    const error = assertError(reply, 400, 'schema.photo.content_type');
    for (const path of ['schema.photo.content_type: expected one of image_url', 'schema.photo.field_limit: expected a positive number', 'schema.title.display_hint.type: expected one of title', 'schema.x.colour: unknown field']) {
      assert.ok(error.message.includes(path), `${path} in ${error.message}`);
    }
    assertError(await putSettings('listings', { fields: {} }), 400, 'schema');
    // A name the service does not take is a namespace it does not have: 404, with the rule.
    for (const name of ['x'.repeat(300), 'Products', 'a.b']) {
      const error = assertError(await putSettings(name, SETTINGS), 404);
      assert.match(error.message, /a namespace name has lowercase letters, digits, "_" and "-" only/, name);
    }
  });

  test('one object or an array is accepted with 202 and a request id; invalid objects are a 400 by index', async () => {
    for (const data of [{ id: 'a' }, [{ id: 'a' }, { id: 'b', text: 'hi' }]]) {
      const reply = await call(emulator, 'POST', '/v1/data/listings', { json: { data } });
      assert.equal(reply.status, 202);
      const body = reply.body as { requestId: string; status: string };
      assert.match(body.requestId, /^req_[0-9a-f]{24}$/);
      assert.equal(body.status, 'accepted');
    }
    assertError(await call(emulator, 'POST', '/v1/data/listings', { json: { data: [{ id: 'a' }, { id: '' }] } }), 400, 'data[1].id');
    assertError(await call(emulator, 'POST', '/v1/data/listings', { json: { data: [] } }), 400, 'data');
    assertError(await call(emulator, 'POST', '/v1/data/listings', { json: { objects: [] } }), 400);
  });

  test('a body over 6 MB is a 413', async () => {
    const big = { data: { id: 'big', text: 'x'.repeat(6_000_001) } };
    assertError(await call(emulator, 'POST', '/v1/data/listings', { json: big }), 413);
  });

  test('status: queued for the first half of the processing delay, ingesting for the second, then succeeded', async () => {
    const requestId = await addData(emulator, 'listings', { id: 'a', text: 'hello' });
    const seen: Array<[string, number]> = [];
    for (const step of [0, 499, 1, 499, 1]) {
      clock.advance(step);
      const record = await getRecord(emulator, 'listings', requestId);
      seen.push([record.status, record.data!.length]);
    }
    assert.deepEqual(seen, [['queued', 0], ['queued', 0], ['ingesting', 0], ['ingesting', 0], ['succeeded', 1]]);
  });

  test('each object gets labels from the classifier, fields cut to field_limit, metadata apart and a review url', async () => {
    await putSettings('listings', SETTINGS);
    const object = {
      id: 'item-1',
      title: 'Sexy bike — I will kill for it',
      description: 'Call 555-123-4567, buy now',
      photo: ['https://example.com/1.png', 'http://example.com/2.jpg'],
      tags: ['a', 'b', 'c'],
      posted: '2026-11-01T10:00:00Z',
      seller: { name: 'Sam' },
      price: 120,
    };
    const requestId = await addData(emulator, 'listings', object);
    clock.advance(1000);
    const record = await getRecord(emulator, 'listings', requestId);
    assert.equal(record.status, 'succeeded');
    const url = record.data![0]!.url as string;
    assert.match(url, new RegExp(`^${emulator.baseUrl}/_emulator/review/listings/item-1\\?X-Csafe-Signature=[0-9a-f]{64}$`));
    assert.deepEqual(record.data, [
      {
        id: 'item-1',
        output: {
          actions: [],
          fields: {
            title: 'Sexy bike — ',
            description: 'Call 555-123-4567, buy now',
            photo: object.photo,
            tags: ['a', 'b'],
            posted: object.posted,
            price: 120,
          },
          // Only what the models saw: "kill" is past the title's field_limit.
          labels: [
            { label: 'spam', score: 0.55, decision: 'review' },
            { label: 'sexual', score: 0.55, decision: 'review' },
            { label: 'pii', score: 0.85, decision: 'match' },
          ],
        },
        url,
        metadata: { seller: { name: 'Sam' } },
      },
    ]);
    const review = await fetch(url);
    assert.equal(review.status, 200);
    assert.deepEqual(await review.json(), { namespace: 'listings', request_id: requestId, ...record.data![0] });
  });

  test('an object whose URL-typed field holds no http(s) URL fails the request; the others keep their output', async () => {
    await putSettings('listings', SETTINGS);
    const requestId = await addData(emulator, 'listings', [
      { id: 'good', photo: 'https://example.com/1.png' },
      { id: 'bad', photo: ['https://example.com/1.png', 'ftp://example.com/2.png'] },
      { id: 'worse', photo: 42 },
    ]);
    clock.advance(1000);
    const record = await getRecord(emulator, 'listings', requestId);
    assert.equal(record.status, 'failed');
    const [good, bad, worse] = record.data!;
    assert.ok(good!.output);
    assert.equal(bad!.output, undefined);
    assert.match((bad!.error as { message: string }).message, /^photo: expected an http\(s\) URL or an array of them \(content_type image_url\)$/);
    assert.ok(worse!.error);
  });

  test('an unknown id, another namespace or a malformed id is a 404; so is an unknown review link', async () => {
    const requestId = await addData(emulator, 'listings', { id: 'a' });
    assertError(await call(emulator, 'GET', `/v1/data/other/requests/${requestId}`), 404);
    assertError(await call(emulator, 'GET', '/v1/data/listings/requests/req_000000000000000000000000'), 404);
    assertError(await call(emulator, 'GET', '/v1/data/listings/requests/..%2F..%2Fsigning-secret'), 404);
    clock.advance(1000);
    const [{ url }] = (await getRecord(emulator, 'listings', requestId)).data as [{ url: string }];
    await resetEmulator(emulator);
    const gone = await fetch(url);
    assertError({ status: gone.status, headers: gone.headers, body: await gone.json() }, 404);
  });

  test('data endpoints need the API key', async () => {
    assertError(await call(emulator, 'POST', '/v1/data/listings', { json: { data: { id: 'a' } }, key: null }), 401);
  });

  test('with unknown_values on, records carry a field the spec does not list', async () => {
    const requestId = await addData(emulator, 'listings', { id: 'a' });
    await call(emulator, 'POST', '/_emulator/quirks', { json: { unknown_values: true } });
    assert.equal((await getRecord(emulator, 'listings', requestId)).priority, 'normal');
  });

  test('reset forgets namespaces and requests', async () => {
    await putSettings('listings', SETTINGS);
    const requestId = await addData(emulator, 'listings', { id: 'a', photo: 'not a url' });
    await call(emulator, 'POST', '/_emulator/reset');
    assertError(await call(emulator, 'GET', `/v1/data/listings/requests/${requestId}`), 404);
    const again = await addData(emulator, 'listings', { id: 'a', photo: 'not a url' });
    clock.advance(1000);
    assert.equal((await getRecord(emulator, 'listings', again)).status, 'succeeded', 'the schema went with the reset');
  });
});
