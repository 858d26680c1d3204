import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { CLASSIFIER_RULES, KNOWN_BAD_IMAGE_SHA256 } from '../../src/emulator/classifier.js';
import { sha256Hex } from '../../src/emulator/images.js';
import { EXAMPLE_IMAGES, PNG_SIGNATURE, crc32, scanlines } from './png.js';
import { exampleImage } from './support.js';

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

test('known-bad.png is the built-in reference set rs_emulator_known_bad; photo.png is in no set', () => {
  assert.equal(sha256Hex(exampleImage('known-bad.png')), KNOWN_BAD_IMAGE_SHA256);
  assert.deepEqual(CLASSIFIER_RULES.builtInReferenceSets['rs_emulator_known_bad'], [KNOWN_BAD_IMAGE_SHA256]);
  const photoDigest = sha256Hex(exampleImage('photo.png'));
  for (const digests of Object.values(CLASSIFIER_RULES.builtInReferenceSets)) assert.ok(!digests.includes(photoDigest));
});
