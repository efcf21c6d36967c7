/**
 * What kind of image some bytes are, and its size in pixels, read from the header alone: PNG,
 * JPEG, GIF and WebP. Nothing is decoded, and nothing is allocated from what a header claims: a
 * header is the sender's word, so a short or lying one gives no dimensions, never an exception.
 */

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface ImageInfo {
  format: ImageFormat;
  /** Both present or both absent: absent when the header is cut short or does not make sense. */
  width?: number;
  height?: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** PNG stores dimensions as 31-bit numbers (the specification's limit). */
const PNG_MAX_DIMENSION = 2 ** 31 - 1;

function startsWith(bytes: Uint8Array, prefix: number[], at = 0): boolean {
  return prefix.every((byte, index) => bytes[at + index] === byte);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function u16be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function u16le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function u24le(bytes: Uint8Array, at: number): number {
  return u16le(bytes, at) | ((bytes[at + 2] ?? 0) << 16);
}

function u32be(bytes: Uint8Array, at: number): number {
  // Multiplication, not a shift: a shift would turn the top bit into a negative number.
  return (bytes[at] ?? 0) * 2 ** 24 + (((bytes[at + 1] ?? 0) << 16) | u16be(bytes, at + 2));
}

/** The info, with dimensions only when the header was whole and they are within the format's range. */
function sized(format: ImageFormat, enough: boolean, width: number, height: number, max: number): ImageInfo {
  const valid = (value: number): boolean => Number.isInteger(value) && value >= 1 && value <= max;
  return enough && valid(width) && valid(height) ? { format, width, height } : { format };
}

function png(bytes: Uint8Array): ImageInfo {
  // The first chunk must be IHDR: its length (13) and name, then width and height.
  const enough = bytes.length >= 24 && ascii(bytes, 12, 4) === 'IHDR';
  return sized('png', enough, u32be(bytes, 16), u32be(bytes, 20), PNG_MAX_DIMENSION);
}

function gif(bytes: Uint8Array): ImageInfo {
  // The logical screen: width and height right after "GIF87a" or "GIF89a".
  return sized('gif', bytes.length >= 10, u16le(bytes, 6), u16le(bytes, 8), 0xffff);
}

/** Start-of-frame markers carry the dimensions; C4 (Huffman tables), C8 and CC (arithmetic coding) do not. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Walks the segments to the first start of frame; every step moves forward, so the walk ends. */
function jpeg(bytes: Uint8Array): ImageInfo {
  let at = 2;
  while (at + 3 < bytes.length) {
    if (bytes[at] !== 0xff) return { format: 'jpeg' };
    const marker = bytes[at + 1] as number;
    // Fill bytes (0xFF 0xFF) and the markers without a length (TEM, RST0–7).
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    // End of image or start of scan before any frame header: no dimensions to be had.
    if (marker === 0xd9 || marker === 0xda) return { format: 'jpeg' };
    const length = u16be(bytes, at + 2);
    if (length < 2) return { format: 'jpeg' };
    if (isStartOfFrame(marker)) {
      // Segment: length (2), precision (1), height (2), width (2).
      return sized('jpeg', at + 9 <= bytes.length, u16be(bytes, at + 7), u16be(bytes, at + 5), 0xffff);
    }
    at += 2 + length;
  }
  return { format: 'jpeg' };
}

function webp(bytes: Uint8Array): ImageInfo {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ') {
    // A key frame's start code, then 14-bit width and height (the top two bits are scaling).
    const enough = bytes.length >= 30 && startsWith(bytes, [0x9d, 0x01, 0x2a], 23);
    return sized('webp', enough, u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff, 0x3fff);
  }
  if (chunk === 'VP8L') {
    // The signature byte 0x2F, then width − 1 and height − 1 in 14 bits each.
    const enough = bytes.length >= 25 && bytes[20] === 0x2f;
    const bits = u16le(bytes, 21) | ((bytes[23] ?? 0) << 16) | ((bytes[24] ?? 0) << 24);
    return sized('webp', enough, (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, 0x4000);
  }
  if (chunk === 'VP8X') {
    // Extended format: the canvas's width − 1 and height − 1 in 24 bits each.
    return sized('webp', bytes.length >= 30, u24le(bytes, 24) + 1, u24le(bytes, 27) + 1, 2 ** 24);
  }
  return { format: 'webp' };
}

/** The image's format and, when the header says so sensibly, its size; `undefined` for anything else. */
export function readImageInfo(bytes: Uint8Array): ImageInfo | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return png(bytes);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes);
  const head = ascii(bytes, 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') return gif(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webp(bytes);
  return undefined;
}
