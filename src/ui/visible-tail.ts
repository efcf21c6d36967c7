/**
 * The end of a growing text that fits the live part of the screen. Ink redraws the live
 * part on every frame, and once it is as tall as the terminal it clears the screen and
 * rewrites the whole scrollback each time; so a streaming reply shows its last rows only,
 * and reaches the scrollback whole when it is complete. Pure.
 */
import { stripVTControlCharacters } from 'node:util';

export interface VisibleTail {
  /** Rendered lines left out above `text`. */
  hiddenLines: number;
  text: string;
}

/** Terminal rows one rendered line takes at `width` columns, once wrapped. */
function rowsOf(line: string, width: number): number {
  return Math.max(1, Math.ceil(stripVTControlCharacters(line).length / Math.max(1, width)));
}

export function visibleTail(rendered: string, width: number, maxRows: number): VisibleTail {
  const lines = rendered.split('\n');
  let rows = 0;
  let start = lines.length;
  while (start > 0 && rows + rowsOf(lines[start - 1] ?? '', width) <= maxRows) {
    start -= 1;
    rows += rowsOf(lines[start] ?? '', width);
  }
  // Always show the last line, even when it alone is taller than the budget.
  if (start === lines.length && lines.length > 0) start = lines.length - 1;
  return { hiddenLines: start, text: lines.slice(start).join('\n') };
}
