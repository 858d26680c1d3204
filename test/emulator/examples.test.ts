import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { contentResponseSchema } from '../../src/schemas/content.js';
import { EXAMPLE_IMAGES, PNG_SIGNATURE, crc32, scanlines } from './png.js';
import { call, exampleBase64, exampleImage, useTestEmulator } from './support.js';

interface Chunk {
  type: string;
  data: Buffer;
}

/** Splits a PNG into its chunks, checking the signature and every chunk's CRC. */
function readChunks(bytes: Buffer): Chunk[] {
  assert.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature');
  const chunks: Chunk[] = [];
  for (let offset = 8; offset < bytes.length; ) {
    const length = bytes.readUInt32BE(offset);
    const typeAndData = bytes.subarray(offset + 4, offset + 8 + length);
    assert.equal(bytes.readUInt32BE(offset + 8 + length), crc32(typeAndData), 'chunk CRC');
    chunks.push({ type: typeAndData.toString('latin1', 0, 4), data: typeAndData.subarray(4) });
    offset += 12 + length;
  }
  return chunks;
}

for (const [name, { width, height, pixel }] of Object.entries(EXAMPLE_IMAGES)) {
  test(`examples/${name} is the documented ${width}x${height} RGB PNG`, () => {
    const chunks = readChunks(exampleImage(name as keyof typeof EXAMPLE_IMAGES));
    assert.deepEqual(chunks.map((chunk) => chunk.type), ['IHDR', 'IDAT', 'IEND']);
    const header = chunks[0]?.data ?? Buffer.alloc(0);
    assert.deepEqual([header.readUInt32BE(0), header.readUInt32BE(4)], [width, height]);
    // Compare decompressed pixels, so a different zlib build cannot make this test fail.
    assert.ok(inflateSync(chunks[1]?.data ?? Buffer.alloc(0)).equals(scanlines(width, height, pixel)));
  });
}

describe('the example images, classified by the emulator', () => {
  const emulator = useTestEmulator();
  const imageLabels = async (name: keyof typeof EXAMPLE_IMAGES) => {
    const reply = await call(emulator, 'POST', '/v1/content', { json: { user_id: 'u1', content: [{ type: 'image', source: { type: 'base64', data: exampleBase64(name) } }] } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return contentResponseSchema.parse(reply.body).labels.filter((label) => label.type === 'similarity');
  };

  test('known-bad.png matches the built-in reference set rs_emulator_known_bad, as the README documents', async () => {
    assert.deepEqual(await imageLabels('known-bad.png'), [
      { type: 'similarity', label: 'reference_set_match', decision: 'match', escalation: 'none', score: 1, set_id: 'rs_emulator_known_bad' },
    ]);
  });

  test('photo.png matches no reference set', async () => {
    assert.deepEqual(await imageLabels('photo.png'), []);
  });
});
