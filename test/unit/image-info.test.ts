/**
 * The image header reader, on real tiny images (made with ImageMagick, metadata stripped; each has
 * a different width and height so a swap shows) and on hostile headers: cut short, lying about
 * their size, or walking a JPEG's segments in circles.
 */
import { describe, expect, it } from 'vitest';
import { readImageInfo } from '../../src/mcp/image-info.js';

const bytes = (base64: string): Uint8Array => Buffer.from(base64, 'base64');

/** 3×2, one-bit palette. */
const PNG = bytes(
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACAQMAAACnuvRZAAAAA1BMVEX/AAAZ4gk3AAAADElEQVQI12NgYGAAAAAEAAEnNCcKAAAAAElFTkSuQmCC',
);
/** 5×4 baseline JFIF: APP0 and two quantisation tables come before the frame header. */
const JPEG = bytes(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAEAAUDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAj/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABQj/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCewFIh3//Z',
);
/** 5×4 progressive JPEG: its frame header is SOF2, not SOF0. */
const PROGRESSIVE_JPEG = bytes(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wgARCAAEAAUDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAVAQEBAAAAAAAAAAAAAAAAAAAEB//aAAwDAQACEAMQAAABnopA/wD/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAEFAn//xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAEDAQE/AX//xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAECAQE/AX//xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAY/An//xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAE/IX//2gAMAwEAAgADAAAAEAv/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAEDAQE/EH//xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAECAQE/EH//xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAE/EH//2Q==',
);
/** 7×6. */
const GIF = bytes('R0lGODlhBwAGAPAAAACAAAAAACH5BAAAAAAALAAAAAAHAAYAAAIFhI+py1oAOw==');
/** 9×8 lossy (VP8), 9×8 lossless (VP8L), and 11×10 with alpha (VP8X). */
const WEBP_LOSSY = bytes(
  'UklGRjwAAABXRUJQVlA4IDAAAADQAQCdASoJAAgAAgA0JaACdLoB+AADsAD+8MQL/yC5YXXI1/8gP+QH/ID/+PIAAAA=',
);
const WEBP_LOSSLESS = bytes('UklGRhwAAABXRUJQVlA4TA8AAAAvCMABAAcQ/Y/+ByKi/wEA');
const WEBP_EXTENDED = bytes(
  'UklGRmAAAABXRUJQVlA4WAoAAAAQAAAACgAACQAAQUxQSAoAAAABB9C/iAhERP8DVlA4IDAAAADQAQCdASoLAAoAAgA0JaACdLoB+AADsAD+8MQL/yC5YXXI1/8gP+QH/ID/+PIAAAA=',
);

/** A copy of `image` with `patch` written at `at`. */
function patched(image: Uint8Array, at: number, patch: number[]): Uint8Array {
  const copy = Uint8Array.from(image);
  copy.set(patch, at);
  return copy;
}

describe('image headers', () => {
  it.each([
    ['PNG', PNG, { format: 'png', width: 3, height: 2 }],
    ['baseline JPEG', JPEG, { format: 'jpeg', width: 5, height: 4 }],
    ['progressive JPEG', PROGRESSIVE_JPEG, { format: 'jpeg', width: 5, height: 4 }],
    ['GIF', GIF, { format: 'gif', width: 7, height: 6 }],
    ['lossy WebP', WEBP_LOSSY, { format: 'webp', width: 9, height: 8 }],
    ['lossless WebP', WEBP_LOSSLESS, { format: 'webp', width: 9, height: 8 }],
    ['extended WebP', WEBP_EXTENDED, { format: 'webp', width: 11, height: 10 }],
  ])('%s: format and dimensions', (_name, image, expected) => {
    expect(readImageInfo(image)).toEqual(expected);
  });

  it('needs only the header: the first bytes of each image are enough', () => {
    expect(readImageInfo(PNG.subarray(0, 24))).toEqual({ format: 'png', width: 3, height: 2 });
    expect(readImageInfo(GIF.subarray(0, 10))).toEqual({ format: 'gif', width: 7, height: 6 });
    const frameHeader = JPEG.indexOf(0xc0, 2) - 1;
    expect(readImageInfo(JPEG.subarray(0, frameHeader + 9))).toEqual({ format: 'jpeg', width: 5, height: 4 });
  });

  it('truncated data: the format without dimensions, for every cut, never an exception', () => {
    for (const image of [PNG, JPEG, PROGRESSIVE_JPEG, GIF, WEBP_LOSSY, WEBP_LOSSLESS, WEBP_EXTENDED]) {
      const whole = readImageInfo(image);
      for (let length = 0; length < image.length; length++) {
        const info = readImageInfo(image.subarray(0, length));
        if (info === undefined) continue;
        expect(info.format).toBe(whole?.format);
        // Dimensions from a cut header are the real ones or none, never garbage.
        if (info.width !== undefined) expect(info).toEqual(whole);
      }
    }
  });

  it('a hostile PNG: dimensions past the format’s 31 bits, or zero, are not believed', () => {
    const huge = patched(PNG, 16, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    expect(readImageInfo(huge)).toEqual({ format: 'png' });
    const zero = patched(PNG, 16, [0, 0, 0, 0]);
    expect(readImageInfo(zero)).toEqual({ format: 'png' });
    // A legal but enormous canvas is reported as claimed: deciding what is too big is the caller's job.
    const claimed = patched(PNG, 16, [0x7f, 0xff, 0xff, 0xff, 0x00, 0x01, 0x00, 0x00]);
    expect(readImageInfo(claimed)).toEqual({ format: 'png', width: 2 ** 31 - 1, height: 65_536 });
  });

  it('a hostile PNG whose first chunk is not IHDR gives no dimensions', () => {
    expect(readImageInfo(patched(PNG, 12, [...Buffer.from('tEXt')]))).toEqual({ format: 'png' });
  });

  it('a hostile JPEG: a zero segment length, a scan before any frame, and a run of fill bytes all end the walk', () => {
    const start = [0xff, 0xd8];
    expect(readImageInfo(Uint8Array.from([...start, 0xff, 0xe0, 0x00, 0x00, 0xff, 0xc0]))).toEqual({ format: 'jpeg' });
    expect(readImageInfo(Uint8Array.from([...start, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0]))).toEqual({ format: 'jpeg' });
    const fill = Uint8Array.from([...start, ...new Array<number>(100_000).fill(0xff)]);
    expect(readImageInfo(fill)).toEqual({ format: 'jpeg' });
    // A segment whose length points past the end of the data.
    expect(readImageInfo(Uint8Array.from([...start, 0xff, 0xe1, 0xff, 0xff, 1, 2, 3]))).toEqual({ format: 'jpeg' });
  });

  it('a JPEG frame that claims 65535×65535 is reported as claimed; GIF and WebP are bounded by their fields', () => {
    const at = JPEG.indexOf(0xc0, 2) + 4;
    expect(readImageInfo(patched(JPEG, at, [0xff, 0xff, 0xff, 0xff]))).toEqual({
      format: 'jpeg',
      width: 65_535,
      height: 65_535,
    });
    expect(readImageInfo(patched(GIF, 6, [0xff, 0xff, 0xff, 0xff]))).toEqual({
      format: 'gif',
      width: 65_535,
      height: 65_535,
    });
    expect(readImageInfo(patched(WEBP_EXTENDED, 24, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))).toEqual({
      format: 'webp',
      width: 2 ** 24,
      height: 2 ** 24,
    });
  });

  it('anything else is not an image it knows', () => {
    expect(readImageInfo(new Uint8Array())).toBeUndefined();
    expect(readImageInfo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(readImageInfo(Buffer.from('/etc/passwd'))).toBeUndefined();
    expect(readImageInfo(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
  });
});
