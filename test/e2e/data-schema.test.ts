import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulatorProcess, tempDir, type EmulatorProcess } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

// `data add --schema` and `data import --schema`: a namespace schema sent with the data, as the
// service's docs and SDK have it, applied to the namespace as `settings put` would apply it.

describe('a namespace schema sent with the data', () => {
  let emulator: EmulatorProcess;
  const dir = tempDir();
  const run = (args: string[], input?: string) => runInProcess(args, { env: emulator.env, cwd: dir, input });
  const posts = async (path: string) => (await emulator.requests()).filter((entry) => entry.method === 'POST' && entry.path === path);
  // Under a schema that types photo as an image URL, an object whose photo is no URL cannot be processed.
  const OBJECTS = '{"id":"a","photo":"https://img.example/a.jpg"}\n{"id":"b","photo":"not a url"}\n';

  before(async () => {
    emulator = await startEmulatorProcess(['--processing-delay', '0']);
    writeFileSync(join(dir, 'schema.json'), '{"photo": {"content_type": "image_url", "display_hint": {"type": "primary_image_url", "order": 1}}}\n');
    writeFileSync(join(dir, 'bad-schema.json'), '{\n  "photo": {"content_type": "picture"}\n}\n');
    writeFileSync(join(dir, 'objects.jsonl'), OBJECTS);
  });
  after(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('data add --schema sends the schema with every batch, and the namespace is processed under it', async () => {
    const added = await run(['data', 'add', 'shop', 'objects.jsonl', '--schema', 'schema.json', '--batch-size', '1', '--wait', '--json']);
    assert.equal(added.code, 1, added.stderr);
    const records = JSON.parse(added.stdout) as Array<{ data: Array<{ id: string; error?: { message: string } }> }>;
    assert.deepEqual(records.map((record) => record.data[0]!.error?.message), [undefined, 'photo: expected an http(s) URL or an array of them (content_type image_url)']);
    const sent = await posts('/v1/data/shop');
    assert.equal(sent.length, 2);
    for (const request of sent) assert.deepEqual(JSON.parse(String(request.body)).schema.photo.content_type, 'image_url');
    // Applied as settings put applies it: a later add without --schema is processed under it too.
    const later = await run(['data', 'add', 'shop', '-', '--wait', '--json'], '{"id":"c","photo":"nope"}\n');
    assert.match(JSON.parse(later.stdout)[0].data[0].error.message, /^photo: expected an http\(s\) URL/);
  });

  it('an invalid --schema is refused before anything is sent, every problem named with its line (exit 2)', async () => {
    const before = (await emulator.requests()).length;
    for (const command of [['data', 'add'], ['data', 'import']]) {
      const refused = await run([...command, 'shop', 'objects.jsonl', '--schema', 'bad-schema.json']);
      assert.equal(refused.code, 2, refused.stderr);
      assert.equal(refused.stderr, 'bad-schema.json:2: schema.photo.content_type: expected one of image_url, video_url, website_url, datetime, metadata, audio_url, card\nerror: the schema has 1 problem; nothing was sent\n');
    }
    // A schema that leaves no room for an object is named as the problem, not each object.
    const fields = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}`, { content_type: 'metadata' }]));
    writeFileSync(join(dir, 'wide-schema.json'), JSON.stringify(fields));
    const overCap = await run(['data', 'add', 'shop', 'objects.jsonl', '--schema', 'wide-schema.json', '--max-batch-bytes', '1024']);
    assert.equal(overCap.code, 2);
    assert.match(overCap.stderr, /^error: --schema: the schema is \d+ bytes serialised, and goes with every request: with it no object fits --max-batch-bytes 1024\n/);
    const both = await run(['data', 'add', 'shop', '-', '--schema', '-'], OBJECTS);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /^error: --schema -: stdin already holds the objects/);
    assert.equal((await emulator.requests()).length, before);
  });

  it('data import --schema asks POST …/requests/upload-url with the schema; a service without it gets PUT …/settings, then POST …/import', async () => {
    const imported = await run(['data', 'import', 'catalog', 'objects.jsonl', '--schema', 'schema.json', '--wait', '--json']);
    // The schema applied: the object whose photo is no URL cannot be processed under it.
    assert.equal(imported.code, 1, imported.stderr);
    assert.match(imported.stderr, /line 2: photo: expected an http\(s\) URL/);
    const [asked] = await posts('/v1/data/catalog/requests/upload-url');
    assert.deepEqual(JSON.parse(String(asked!.body)).schema.photo.display_hint, { type: 'primary_image_url', order: 1 });
    assert.deepEqual(await posts('/v1/data/catalog/import'), []);

    await emulator.control('/_emulator/quirks', { method: 'POST', body: { spec_only: true } });
    try {
      const older = await run(['data', 'import', 'older', 'objects.jsonl', '--schema', 'schema.json', '--wait', '--json']);
      assert.equal(older.code, 1, older.stderr);
      assert.match(older.stderr, /the service has no …\/requests\/upload-url \(404\); setting the schema with PUT …\/settings, then POST …\/import/);
      assert.match(older.stderr, /line 2: photo: expected an http\(s\) URL/, 'the import was processed under the schema');
      const log = await emulator.requests();
      assert.deepEqual(log.filter((entry) => String(entry.path).startsWith('/v1/data/older')).map((entry) => `${entry.method} ${entry.path} ${entry.status}`).slice(0, 3), [
        'POST /v1/data/older/requests/upload-url 404',
        'PUT /v1/data/older/settings 200',
        'POST /v1/data/older/import 200',
      ]);
    } finally {
      await emulator.control('/_emulator/quirks', { method: 'POST', body: { spec_only: false } });
    }
  });

  it('data import --schema remembers, per profile, that the service lacks …/requests/upload-url: the next run goes the older way at once', async () => {
    const config = join(dir, 'remembering-config');
    const remembering = (namespace: string) => runInProcess(['data', 'import', namespace, 'objects.jsonl', '--schema', 'schema.json'], { env: { ...emulator.env, CSAFE_CONFIG_DIR: config }, cwd: dir });
    const calls = async (namespace: string) =>
      (await emulator.requests()).filter((entry) => String(entry.path).startsWith(`/v1/data/${namespace}/`)).map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
    await emulator.control('/_emulator/quirks', { method: 'POST', body: { spec_only: true } });
    try {
      assert.equal((await remembering('first')).code, 0);
      assert.deepEqual(await calls('first'), ['POST /v1/data/first/requests/upload-url 404', 'PUT /v1/data/first/settings 200', 'POST /v1/data/first/import 200']);
      const second = await remembering('second');
      assert.equal(second.code, 0, second.stderr);
      assert.deepEqual(await calls('second'), ['PUT /v1/data/second/settings 200', 'POST /v1/data/second/import 200'], 'not asked again');
      assert.match(second.stderr, /the service had no …\/requests\/upload-url when last asked/);
      const memory = JSON.parse(readFileSync(join(config, 'service.json'), 'utf8')) as { profiles: Record<string, { base_url: string; lacking: Record<string, string> }> };
      assert.deepEqual(Object.keys(memory.profiles.default!.lacking), ['upload-url']);
      assert.equal(memory.profiles.default!.base_url, new URL(emulator.baseUrl).href);
    } finally {
      await emulator.control('/_emulator/quirks', { method: 'POST', body: { spec_only: false } });
    }
    // Another profile's service is asked afresh.
    const fresh = await runInProcess(['data', 'import', 'third', 'objects.jsonl', '--schema', 'schema.json'], { env: { ...emulator.env, CSAFE_CONFIG_DIR: join(dir, 'another-config') }, cwd: dir });
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.deepEqual(await calls('third'), ['POST /v1/data/third/requests/upload-url 200']);
  });
});
