/**
 * Images in a tool result: the one line that describes each (`[image png 64×64, 1.2 kB]`), for
 * people and for the model, and which of them a model that can see is given, within caps. An
 * image outside the caps is only described, with the reason.
 */
import type { ToolImage } from '../vocabulary/types.js';
import { type ImageInfo, readImageInfo } from './image-info.js';

/**
 * Images of one result given to the model; later ones are only described. Each costs a vision
 * model hundreds to thousands of tokens of context that the history's estimate does not see, and
 * it is sent again with every later request while it stays in the window.
 */
export const MAX_IMAGES_PER_RESULT = 3;
/**
 * Bytes of one image given to the model. It travels as base64 (a third more) in every later
 * request, and the model's encoder scales it down to a few hundred pixels anyway: 1 MB holds a
 * full-screen PNG screenshot.
 */
export const MAX_IMAGE_BYTES = 1_000_000;
/**
 * Pixels of one image given to the model. Ollama decodes the whole image before it scales it, at
 * four bytes a pixel whatever the file's size: a small file that claims a huge canvas (a
 * decompression bomb) would take Ollama's memory.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
/**
 * The formats both of Ollama's engines read: its own registers PNG, JPEG, BMP, TIFF and WebP
 * decoders (`model/model.go`), the llama.cpp one reads with stb_image, which has no WebP. An
 * image Ollama cannot decode fails the whole request, so GIF and WebP are only described.
 */
const GIVEN_FORMATS: ReadonlySet<string> = new Set(['png', 'jpeg']);
/** Enough of the start of an image for its header: a JPEG's frame header may follow 64 kB of EXIF. */
const HEADER_BYTES = 128 * 1024;
const HEADER_BASE64_CHARS = 4 * Math.ceil(HEADER_BYTES / 3);

/** Bytes that base64 text decodes to, counted from its length: nothing is decoded. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** `812 B`, `1.2 kB`, `3.4 MB`: decimal units, as file managers show them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** `png` from `image/png`; the server's text, so only a plain token of it is kept. */
export function mediaSubtype(mimeType: string): string {
  const subtype = mimeType.slice(mimeType.indexOf('/') + 1).toLowerCase();
  return /^[a-z0-9.+-]{1,32}$/.test(subtype) ? subtype : 'unknown type';
}

function headerInfo(data: string): ImageInfo | undefined {
  return readImageInfo(Buffer.from(data.slice(0, HEADER_BASE64_CHARS), 'base64'));
}

/** `png 64×64, 1.2 kB`: the format the bytes show (else the one the server claims), the size if known. */
function label(info: ImageInfo | undefined, mimeType: string, bytes: number): string {
  const format = info?.format ?? mediaSubtype(mimeType);
  const pixels = info?.width === undefined ? '' : ` ${info.width}×${info.height}`;
  return `${format}${pixels}, ${formatBytes(bytes)}`;
}

/** What one image block reads as, given to no model. */
export function describeImage(data: string, mimeType: string): string {
  return `[image ${label(headerInfo(data), mimeType, base64Bytes(data))}]`;
}

const FORMAT_REFUSAL = 'only PNG and JPEG images are';

/** Why an image may not be given to the model, or `undefined` when it may. */
function refusal(info: ImageInfo, bytes: number, given: number): string | undefined {
  if (!GIVEN_FORMATS.has(info.format)) return FORMAT_REFUSAL;
  if (bytes > MAX_IMAGE_BYTES) return `it is larger than ${formatBytes(MAX_IMAGE_BYTES)}`;
  if (info.width === undefined || info.height === undefined) return 'its header gives no dimensions';
  if (info.width * info.height > MAX_IMAGE_PIXELS)
    return `it claims more than ${MAX_IMAGE_PIXELS / 1_000_000} million pixels`;
  if (given >= MAX_IMAGES_PER_RESULT) return `only the first ${MAX_IMAGES_PER_RESULT} images of a result are`;
  return undefined;
}

function notGiven(described: string, why: string): string {
  return `[image ${described}; not given to the model: ${why}]`;
}

/** The images of one result: each block's line, in order, and those a model that can see is given. */
export class ResultImages {
  readonly given: ToolImage[] = [];

  line(data: string, mimeType: string): string {
    const info = headerInfo(data);
    const bytes = base64Bytes(data);
    const described = label(info, mimeType, bytes);
    if (!info) return notGiven(described, FORMAT_REFUSAL);
    const why = refusal(info, bytes, this.given.length);
    if (why !== undefined) return notGiven(described, why);
    // Decoded and encoded again: the SDK accepts what `atob` does (no padding, spaces), Ollama does not.
    const canonical = Buffer.from(data, 'base64').toString('base64');
    this.given.push({ data: canonical, mimeType: `image/${info.format}`, label: described });
    return `[image ${described}]`;
  }
}
