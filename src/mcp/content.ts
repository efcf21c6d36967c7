/**
 * Turns an MCP `CallToolResult` into the two views the program needs: text for the
 * model (capped, so one tool cannot flood the context) and one safe line for the
 * screen (ANSI and control characters stripped, so a server cannot drive the terminal).
 */
import { stripVTControlCharacters } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Characters of one tool result that may enter the model's context. */
export const MAX_RESULT_CHARS_FOR_MODEL = 8_000;
/** Characters of one tool result shown on its one-line summary. */
const MAX_DISPLAY_CHARS = 160;

type ContentBlock = CallToolResult['content'][number];

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.description ? `: ${block.description}` : ''}]`;
    default:
      return '';
  }
}

/** The whole textual content of a result, before any cap. */
export function resultText(result: CallToolResult): string {
  const texts = (result.content ?? []).map(blockText).filter((text) => text.length > 0);
  if (texts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return texts.join('\n');
}

export function capForModel(text: string, maxChars = MAX_RESULT_CHARS_FOR_MODEL): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… truncated: showing ${maxChars} of ${text.length} characters]`;
}

// Security: everything a server says passes through here before it reaches the terminal.
export function sanitizeForDisplay(text: string, maxChars = MAX_DISPLAY_CHARS): string {
  const oneLine = stripVTControlCharacters(text)
    // C0 controls, DEL and C1 controls (left after the escape sequences are gone) become spaces.
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return oneLine.length <= maxChars ? oneLine : `${oneLine.slice(0, maxChars - 1)}…`;
}

// Security: the multi-line counterpart, for whole results, answers and notices printed to a terminal.
// Escape sequences and control characters go; line breaks and tabs stay. A carriage return goes too,
// so no text can move the cursor back and hide what came before it. Stateless, so safe on streamed chunks.
export function sanitizeForTerminal(text: string): string {
  return stripVTControlCharacters(text).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

export interface ResultViews {
  isError: boolean;
  forModel: string;
  forDisplay: string;
}

/** `scrub` runs on the whole text before it is capped, so nothing it removes can survive half-cut. */
export function toResultViews(result: CallToolResult, maxModelChars?: number, scrub: (text: string) => string = (text) => text): ResultViews {
  const text = scrub(resultText(result));
  return {
    isError: result.isError === true,
    forModel: capForModel(text, maxModelChars),
    forDisplay: sanitizeForDisplay(text),
  };
}
