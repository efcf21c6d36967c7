/**
 * What a model that cannot see reads in place of an image: the model client writes it into the
 * message an image came with, so the model knows something was there.
 */
import type { ToolImage } from './types.js';

/** What a model that cannot see reads in place of an image a message carries. */
export function unseenImageNote(image: ToolImage, fromTool: boolean): string {
  const source = fromTool ? 'The tool returned' : 'This message has';
  return `[${source} an image (${image.label}) that this model cannot see.]`;
}
