import { deflateSync } from 'node:zlib';

export type Rgb = readonly [number, number, number];
export type PixelFunction = (x: number, y: number) => Rgb;

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** How the committed example images were made: `encodePng(width, height, pixel)` of each entry. */
export const EXAMPLE_IMAGES = {
  'known-bad.png': { width: 16, height: 16, pixel: (): Rgb => [255, 0, 0] },
  'photo.png': { width: 32, height: 32, pixel: (x: number, y: number): Rgb => [x * 8, y * 8, 128] },
} as const;

/**
 * A minimal PNG encoder (8-bit RGB, no interlace), so tests make fresh, valid images without
 * binary fixtures.
 */
export function encodePng(width: number, height: number, pixel: PixelFunction): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanlines(width, height, pixel), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The uncompressed image data: each row is filter type 0 (none) followed by its RGB pixels. */
export function scanlines(width: number, height: number, pixel: PixelFunction): Buffer {
  const rowBytes = 1 + width * 3;
  const raw = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * rowBytes + 1 + x * 3);
  }
  return raw;
}

/**
 * A whole PNG of exactly `length` bytes: a 1×1 image with a private ancillary chunk of `fill`
 * bytes before its IEND, which a decoder skips; for tests of the size limits.
 */
export function pngOfLength(length: number, fill: (size: number) => Buffer = (size) => Buffer.alloc(size)): Buffer {
  const image = encodePng(1, 1, () => [0, 0, 0]);
  const end = image.length - 12;
  const padding = length - image.length - 12;
  if (padding < 0) throw new Error(`a PNG cannot be as short as ${length} bytes`);
  return Buffer.concat([image.subarray(0, end), chunk('paDd', fill(padding)), image.subarray(end)]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
