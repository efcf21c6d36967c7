/**
 * Images in a tool result, as the host turns them into the model's view: one line each, and the
 * images a model that can see is given, within the caps (count, bytes, pixels, formats Ollama
 * decodes), in the base64 form Ollama takes. Structured content when no text says it.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { resultText, toResultViews } from '../../src/mcp/content.js';
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_RESULT } from '../../src/mcp/result-images.js';

/** A real 3×2 PNG (84 bytes). */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACAQMAAACnuvRZAAAAA1BMVEX/AAAZ4gk3AAAADElEQVQI12NgYGAAAAAEAAEnNCcKAAAAAElFTkSuQmCC';
/** A real 7×6 GIF (46 bytes). */
const GIF = 'R0lGODlhBwAGAPAAAACAAAAAACH5BAAAAAAALAAAAAAHAAYAAAIFhI+py1oAOw==';

/** A PNG header claiming `width`×`height`, followed by `padding` zero bytes. */
function pngClaiming(width: number, height: number, padding = 0): string {
  const header = Buffer.from(PNG, 'base64').subarray(0, 33);
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return Buffer.concat([header, Buffer.alloc(padding)]).toString('base64');
}

const image = (data: string, mimeType = 'image/png'): CallToolResult['content'][number] => ({
  type: 'image',
  data,
  mimeType,
});

describe('images in a tool result', () => {
  it('one line each, `[image png 3×2, 84 B]`, with the image given to the model as it came', () => {
    const views = toResultViews({
      content: [{ type: 'text', text: 'Here:' }, image(PNG), { type: 'text', text: 'done' }],
    });
    expect(views.forModel).toBe('Here:\n[image png 3×2, 84 B]\ndone');
    expect(views.images).toEqual([{ data: PNG, mimeType: 'image/png', label: 'png 3×2, 84 B' }]);
    expect(resultText({ content: [image(PNG)] })).toBe('[image png 3×2, 84 B]');
  });

  it('the format is what the bytes are: a JPEG called image/png is a JPEG', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x04, 0x00, 0x05]).toString('base64');
    expect(toResultViews({ content: [image(jpeg)] }).images?.[0]).toMatchObject({
      mimeType: 'image/jpeg',
      label: 'jpeg 5×4, 11 B',
    });
  });

  it('base64 the SDK accepts but Ollama would not (no padding, line breaks) is given in its canonical form', () => {
    const padded = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.from([0])]).toString('base64');
    expect(padded.endsWith('==')).toBe(true);
    const sloppy = `${padded.slice(0, 40)}\n${padded.slice(40, -2)}`;
    expect(toResultViews({ content: [image(sloppy)] }).images?.[0]?.data).toBe(padded);
  });

  it(`at most ${MAX_IMAGES_PER_RESULT} images of a result are given; the others are described and say why`, () => {
    const views = toResultViews({ content: Array.from({ length: MAX_IMAGES_PER_RESULT + 2 }, () => image(PNG)) });
    expect(views.images).toHaveLength(MAX_IMAGES_PER_RESULT);
    const lines = views.forModel.split('\n');
    expect(lines.slice(0, MAX_IMAGES_PER_RESULT)).toEqual(Array(MAX_IMAGES_PER_RESULT).fill('[image png 3×2, 84 B]'));
    expect(lines.at(-1)).toBe(
      `[image png 3×2, 84 B; not given to the model: only the first ${MAX_IMAGES_PER_RESULT} images of a result are]`,
    );
  });

  it('an image over the byte cap is described, not given', () => {
    const big = pngClaiming(640, 480, MAX_IMAGE_BYTES);
    const views = toResultViews({ content: [image(big)] });
    expect(views.images).toBeUndefined();
    expect(views.forModel).toBe('[image png 640×480, 1.0 MB; not given to the model: it is larger than 1.0 MB]');
  });

  it('a decompression bomb: a small file that claims a huge canvas is not given', () => {
    const views = toResultViews({ content: [image(pngClaiming(100_000, 100_000))] });
    expect(views.images).toBeUndefined();
    expect(views.forModel).toBe(
      '[image png 100000×100000, 33 B; not given to the model: it claims more than 40 million pixels]',
    );
  });

  it('only PNG and JPEG are given (the formats every Ollama engine decodes); GIF, WebP and the unknown are described', () => {
    const views = toResultViews({
      content: [image(GIF, 'image/gif'), image(Buffer.from('<svg/>').toString('base64'), 'image/svg+xml')],
    });
    expect(views.images).toBeUndefined();
    expect(views.forModel.split('\n')).toEqual([
      '[image gif 7×6, 46 B; not given to the model: only PNG and JPEG images are]',
      '[image svg+xml, 6 B; not given to the model: only PNG and JPEG images are]',
    ]);
  });

  it('a PNG whose header is cut short is not given: its size cannot be checked', () => {
    const cut = Buffer.from(PNG, 'base64').subarray(0, 20).toString('base64');
    expect(toResultViews({ content: [image(cut)] }).forModel).toBe(
      '[image png, 20 B; not given to the model: its header gives no dimensions]',
    );
  });

  it('a hostile MIME type is not echoed: only a plain token of it', () => {
    const data = Buffer.from('????').toString('base64');
    expect(resultText({ content: [image(data, 'image/\u001b[31mred')] })).toBe('[image unknown type, 4 B]');
  });

  it('an embedded image resource is an image; audio is one line too', () => {
    const views = toResultViews({
      content: [
        { type: 'resource', resource: { uri: 'file:///dot.png', mimeType: 'image/png', blob: PNG } },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ],
    });
    expect(views.forModel).toBe('[image png 3×2, 84 B]\n[audio wav, 3 B]');
    expect(views.images).toHaveLength(1);
  });

  it('structured content is given as JSON when no text block says it, an image notwithstanding', () => {
    expect(resultText({ content: [image(PNG)], structuredContent: { temperature: 21 } })).toBe(
      '[image png 3×2, 84 B]\n{"temperature":21}',
    );
    expect(
      resultText({ content: [{ type: 'text', text: '21 degrees' }], structuredContent: { temperature: 21 } }),
    ).toBe('21 degrees');
  });
});
