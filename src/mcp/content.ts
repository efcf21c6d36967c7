/**
 * Turns an MCP `CallToolResult` into what the model reads: every content block as text,
 * capped so one tool cannot flood the context, and the images a model that can see may be
 * given (result-images.ts). The text stays raw: printers make it inert (see
 * shared/terminal-text.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolImage } from '../vocabulary/types.js';
import { base64Bytes, describeImage, formatBytes, mediaSubtype, ResultImages } from './result-images.js';

/** Characters of one tool result that may enter the model's context. */
export const MAX_RESULT_CHARS_FOR_MODEL = 8_000;

type ContentBlock = CallToolResult['content'][number];
/** An image block's line in the text (and whatever else is done with the image). */
type ImageLine = (data: string, mimeType: string) => string;

function blockText(block: ContentBlock, imageLine: ImageLine): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return imageLine(block.data, block.mimeType);
    case 'audio':
      return `[audio ${mediaSubtype(block.mimeType)}, ${formatBytes(base64Bytes(block.data))}]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource) return resource.text;
      // An embedded image is an image like any other.
      if (resource.mimeType?.startsWith('image/')) return imageLine(resource.blob, resource.mimeType);
      return `[resource ${resource.uri}]`;
    }
    case 'resource_link':
      return `[resource link ${block.uri}${block.description ? `: ${block.description}` : ''}]`;
    default:
      return '';
  }
}

/** Structured content is the result's data when no text block says it (the SDK checked it against `outputSchema`). */
function textOf(result: CallToolResult, imageLine: ImageLine): string {
  const blocks = result.content ?? [];
  const texts = blocks.map((block) => blockText(block, imageLine)).filter((text) => text.length > 0);
  const saidInText = blocks.some((block) => block.type === 'text' && block.text.trim() !== '');
  if (!saidInText && result.structuredContent !== undefined) texts.push(JSON.stringify(result.structuredContent));
  return texts.join('\n');
}

/** The whole textual content of a result, before any cap; each image is one line. */
export function resultText(result: CallToolResult): string {
  return textOf(result, describeImage);
}

export function capForModel(text: string, maxChars = MAX_RESULT_CHARS_FOR_MODEL): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… truncated: showing ${maxChars} of ${text.length} characters]`;
}

export interface ResultViews {
  isError: boolean;
  forModel: string;
  /** Absent when the result has no image a model may be given. */
  images?: ToolImage[];
}

/** `scrub` runs on the whole text before it is capped, so nothing it removes can survive half-cut. */
export function toResultViews(
  result: CallToolResult,
  maxModelChars?: number,
  scrub: (text: string) => string = (text) => text,
): ResultViews {
  const images = new ResultImages();
  const text = scrub(textOf(result, (data, mimeType) => images.line(data, mimeType)));
  return {
    isError: result.isError === true,
    forModel: capForModel(text, maxModelChars),
    ...(images.given.length > 0 ? { images: images.given } : {}),
  };
}
