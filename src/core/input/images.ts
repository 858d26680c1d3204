/**
 * Which image format bytes hold (by their magic bytes, not a file's name), and whether the image
 * is whole: a file cut short opens like an image but the service cannot decode it ("Invalid body
 * or images"). csafe checks before sending, the emulator refuses as the service would, with the
 * same words. Node built-ins only.
 */

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The formats the service accepts, as a user would name them. */
export const IMAGE_FORMATS = 'PNG, JPEG, GIF or WebP';

/** The names a file of an image format is usually given. */
export const IMAGE_EXTENSION = /\.(png|jpe?g|gif|webp)$/i;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image type told by magic bytes, not by the file's extension. */
export function detectImageType(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

/**
 * Why an image of `type` cannot be whole, or undefined when its structure ends where it should:
 * PNG chunks that run to an IEND within the bytes, a JPEG end-of-image marker, a GIF trailer, a
 * WebP whose RIFF size fits the bytes. A structural check, not a decoder: damage inside the
 * compressed data goes unseen.
 */
export function imageDamage(bytes: Uint8Array, type: ImageType): string | undefined {
  const whole = WHOLE[type](bytes);
  return whole ? undefined : `a ${NAMES[type]} image cut short (${ENDS[type]}): the file is damaged or was not copied whole`;
}

/**
 * Why decoded image data cannot be classified (not of a format the service takes, or not whole), in
 * the words the service's 400 uses, or undefined: checked by csafe before sending and by the emulator.
 */
export function decodedImageProblem(bytes: Uint8Array): string | undefined {
  const type = detectImageType(bytes);
  if (type === undefined) return `base64 data does not decode to ${IMAGE_FORMATS} image bytes`;
  const damage = imageDamage(bytes, type);
  return damage === undefined ? undefined : `base64 data is ${damage}`;
}

const NAMES: Record<ImageType, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' };
const ENDS: Record<ImageType, string> = {
  'image/png': 'its chunks end before IEND',
  'image/jpeg': 'no end-of-image marker',
  'image/gif': 'no trailer byte',
  'image/webp': 'shorter than its RIFF header says',
};

const WHOLE: Record<ImageType, (bytes: Uint8Array) => boolean> = {
  'image/png': pngEndsWithIend,
  // An end-of-image marker anywhere after the start: a thumbnail's could hide a cut, a rare case left to the service.
  'image/jpeg': (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).lastIndexOf(JPEG_END) > 2,
  // The logical screen descriptor (13 bytes with the header), something, then the trailer.
  'image/gif': (bytes) => bytes.length > 13 && bytes[bytes.length - 1] === 0x3b,
  'image/webp': (bytes) => bytes.length >= 12 && new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(4, true) + 8 <= bytes.length,
};

const JPEG_END = Buffer.from([0xff, 0xd9]);
const IEND = ascii('IEND');

/** Whether PNG chunks (length, type, data, CRC) follow one another within the bytes up to an IEND. */
function pngEndsWithIend(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let at = PNG_SIGNATURE.length; at + 12 <= bytes.length; ) {
    const end = at + 12 + view.getUint32(at);
    if (end > bytes.length) return false;
    if (startsWith(bytes, IEND, at + 4)) return true;
    at = end;
  }
  return false;
}
