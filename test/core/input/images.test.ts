import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectImageType, IMAGE_EXTENSION, imageDamage } from '../../../src/core/input/images.js';

const bytes = (...parts: Array<string | number[] | Buffer>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
const uint32 = (value: number, littleEndian = false) => {
  const buffer = Buffer.alloc(4);
  if (littleEndian) buffer.writeUInt32LE(value);
  else buffer.writeUInt32BE(value);
  return buffer;
};
const pngChunk = (type: string, data: Buffer) => bytes(uint32(data.length), type, data, [0, 0, 0, 0]);
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], pngChunk('IHDR', Buffer.alloc(13)), pngChunk('IDAT', Buffer.alloc(20, 7)), pngChunk('IEND', Buffer.alloc(0)));
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0], Buffer.alloc(16, 1), [0xff, 0xd9]);
const GIF = bytes('GIF89a', Buffer.alloc(7), [0x2c, 0x3b]);
const webp = (declared: number, length: number) => bytes('RIFF', uint32(declared, true), 'WEBP', Buffer.alloc(length - 12));

describe('imageDamage', () => {
  it('takes a whole image of each type as whole', () => {
    for (const image of [PNG, JPEG, GIF, webp(32, 40), webp(32, 48)]) {
      const type = detectImageType(image);
      assert.ok(type !== undefined, image.subarray(0, 12).toString('latin1'));
      assert.equal(imageDamage(image, type), undefined, type);
    }
  });

  it('names a PNG cut anywhere before its IEND chunk ends, or whose chunk lengths run past its end', () => {
    const cut = 'a PNG image cut short (its chunks end before IEND): the file is damaged or was not copied whole';
    for (const length of [8, 20, 33, PNG.length - 13, PNG.length - 1]) assert.equal(imageDamage(PNG.subarray(0, length), 'image/png'), cut, `cut at ${length}`);
    const lying = Buffer.from(PNG);
    lying.writeUInt32BE(1_000_000, 33);
    assert.equal(imageDamage(lying, 'image/png'), cut);
    const noIend = bytes(PNG.subarray(0, PNG.length - 12), pngChunk('tEXt', Buffer.from('after')));
    assert.equal(imageDamage(noIend, 'image/png'), cut, 'chunks that end without an IEND');
    assert.equal(imageDamage(bytes(PNG, 'trailing junk'), 'image/png'), undefined, 'what follows IEND is not looked at');
    const iendCut = bytes(PNG.subarray(0, PNG.length - 12), uint32(8), 'IEND', [1, 2, 3, 4]);
    assert.equal(imageDamage(iendCut, 'image/png'), cut, 'an IEND chunk whose data is cut short');
  });

  it('names a JPEG without an end-of-image marker after its start, a GIF without its trailer, a WebP shorter than its RIFF size', () => {
    assert.equal(imageDamage(JPEG.subarray(0, JPEG.length - 1), 'image/jpeg'), 'a JPEG image cut short (no end-of-image marker): the file is damaged or was not copied whole');
    assert.equal(imageDamage(bytes([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg'), 'a JPEG image cut short (no end-of-image marker): the file is damaged or was not copied whole', 'a marker inside the start is none');
    assert.equal(imageDamage(bytes([0xff, 0xd8, 0xff, 0x00, 0xff, 0xd9]), 'image/jpeg'), undefined);
    assert.equal(imageDamage(GIF.subarray(0, GIF.length - 1), 'image/gif'), 'a GIF image cut short (no trailer byte): the file is damaged or was not copied whole');
    assert.equal(imageDamage(bytes('GIF89a', Buffer.alloc(6), [0x3b]), 'image/gif'), 'a GIF image cut short (no trailer byte): the file is damaged or was not copied whole', 'a trailer inside the screen descriptor is none');
    assert.equal(imageDamage(webp(33, 40), 'image/webp'), 'a WebP image cut short (shorter than its RIFF header says): the file is damaged or was not copied whole');
    assert.equal(imageDamage(webp(4, 12), 'image/webp'), undefined, 'a RIFF header and nothing more, as its size says');
    assert.equal(imageDamage(bytes('RIFF', uint32(0, true), 'WEB'), 'image/webp'), 'a WebP image cut short (shorter than its RIFF header says): the file is damaged or was not copied whole');
  });

  it('reads an image that is a view into a larger buffer by its own bytes', () => {
    const around = bytes('before', PNG, 'after');
    assert.equal(imageDamage(around.subarray(6, 6 + PNG.length), 'image/png'), undefined);
    const webpAround = bytes('xx', webp(32, 40), 'yy');
    assert.equal(imageDamage(webpAround.subarray(2, 42), 'image/webp'), undefined);
    assert.equal(imageDamage(webpAround.subarray(2, 41), 'image/webp'), 'a WebP image cut short (shorter than its RIFF header says): the file is damaged or was not copied whole');
    const jpegAround = bytes(JPEG.subarray(0, JPEG.length - 2), [0, 0], [0xff, 0xd9]);
    assert.equal(imageDamage(jpegAround.subarray(0, JPEG.length), 'image/jpeg'), 'a JPEG image cut short (no end-of-image marker): the file is damaged or was not copied whole', 'the marker past the view is not seen');
  });
});

describe('IMAGE_EXTENSION', () => {
  it('is the name of a PNG, JPEG, GIF or WebP file, in any case, and only at the end of the name', () => {
    for (const name of ['a.png', 'a.jpg', 'a.JPEG', 'a.gif', 'b.webp', 'dir.png/a.PnG']) assert.ok(IMAGE_EXTENSION.test(name), name);
    for (const name of ['a.png.txt', 'a.jpgx', 'apng', 'a.tiff', 'a.jp']) assert.ok(!IMAGE_EXTENSION.test(name), name);
  });
});
