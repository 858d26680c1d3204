import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { readSchemaFile, schemaFromFields } from '../../src/commands/namespace-schema.js';
import { tempDir } from '../helpers/cli.js';

const dir = tempDir();
const schemaFile = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return readSchemaFile(path, new PassThrough());
};

describe('settings put: the schema from a file', () => {
  it('takes the map itself or the request body {"schema": …}', async () => {
    const map = { photo: { content_type: 'image_url', display_hint: { type: 'primary_image_url' } }, title: { field_limit: 200 } };
    assert.deepEqual(await schemaFile('map.json', JSON.stringify(map)), { schema: map });
    assert.deepEqual(await schemaFile('body.json', JSON.stringify({ schema: map })), { schema: map });
  });

  it('reads a namespace field called "schema" as a field, not as the body', async () => {
    const map = { schema: { content_type: 'metadata' } };
    assert.deepEqual(await schemaFile('field.json', JSON.stringify(map)), { schema: map });
  });

  it('reports every bad member with its line and path', async () => {
    const text = '{\n  "photo": {\n    "content_type": "image",\n    "display_hint": {"type": "banner"}\n  },\n  "price": {"field_limit": 0, "namespace_ref": 7},\n  "x": {"colour": "red"}\n}\n';
    const { problems } = await schemaFile('bad.json', text);
    const path = join(dir, 'bad.json');
    assert.deepEqual(problems, [
      `${path}:3: schema.photo.content_type: expected one of image_url, video_url, website_url, datetime, metadata, audio_url, card`,
      `${path}:4: schema.photo.display_hint.type: expected one of title, subtitle, description, primary_image_url, video_url, location, compact_text, markdown, html, email.reply_to, email.body, email.subject, email.body_image, email.logo_image, email.event, email.footer, audio_url, date, card, chat_thread`,
      `${path}:6: schema.price.field_limit: expected a positive number`,
      `${path}:6: schema.price.namespace_ref: expected a namespace name (string)`,
      `${path}:7: schema.x.colour: unknown field`,
    ]);
  });

  it('names an empty field name as such, not as a schema that is no object', async () => {
    const { problems } = await schemaFile('empty-name.json', '{\n  "": {"content_type": "metadata"}\n}\n');
    assert.deepEqual(problems, [`${join(dir, 'empty-name.json')}:2: schema.: expected a non-empty field name`]);
  });

  it('locates invalid JSON and refuses an empty file', async () => {
    assert.match((await schemaFile('broken.json', '{\n  "a": {,}\n}')).problems![0]!, /broken\.json:2: invalid JSON at column \d+/);
    await assert.rejects(schemaFile('empty.json', ' \n'), { message: /empty\.json: is empty, expected a JSON object .*; nothing was sent$/ });
  });

  it('refuses a file larger than the 6 MB a request may carry, as the service would', async () => {
    const padded = (bytes: number) => `{"title": {"field_limit": 1}}${' '.repeat(bytes - 29)}`;
    assert.ok('schema' in (await schemaFile('at-limit.json', padded(6_000_000))));
    await assert.rejects(schemaFile('over-limit.json', padded(6_000_001)), { message: /over-limit\.json: larger than 6000000 bytes, the most one request can carry/ });
  });
});

describe('settings put: --field', () => {
  it('builds the schema from name:content_type[:display_hint]', () => {
    assert.deepEqual(schemaFromFields(['photo:image_url:primary_image_url', 'title::title', 'created:datetime']), {
      schema: { photo: { content_type: 'image_url', display_hint: { type: 'primary_image_url' } }, title: { display_hint: { type: 'title' } }, created: { content_type: 'datetime' } },
    });
  });

  it('names the flag for every bad value', () => {
    assert.deepEqual(schemaFromFields(['photo:image', 'a::nope', 'lonely', 'a:metadata', 'a:x:y:z']).problems, [
      '--field "photo:image": content_type: expected one of image_url, video_url, website_url, datetime, metadata, audio_url, card',
      '--field "a::nope": display_hint.type: expected one of title, subtitle, description, primary_image_url, video_url, location, compact_text, markdown, html, email.reply_to, email.body, email.subject, email.body_image, email.logo_image, email.event, email.footer, audio_url, date, card, chat_thread',
      '--field "lonely": expected name:content_type[:display_hint], e.g. photo:image_url:primary_image_url',
      '--field "a:x:y:z": expected name:content_type[:display_hint], e.g. photo:image_url:primary_image_url',
    ]);
    assert.deepEqual(schemaFromFields(['a:metadata', 'a:datetime']).problems, ['--field "a:datetime": field "a" is given twice']);
  });
});
