/**
 * The markdown of a reply while it streams, rendered from a moving start. The live area shows
 * only the last rows of a reply, but rendering it whole at every frame costs time in proportion
 * to everything said so far: at the end of a long reply, most of a frame. So the start moves on
 * past what has scrolled out of sight, to points where rendering from there gives exactly the
 * lines a whole render would end with:
 *
 * - a blank line between blocks (outside a code fence, before a line that does not start with
 *   a space): markdown renders the blocks on either side of it alone, a blank line apart;
 * - the start of a wrapped line inside a long plain paragraph: words are wrapped greedily, so the
 *   lines from one that starts at a word depend only on the words from there. The move is made
 *   only when the source's words before that point are exactly the words shown and hold nothing
 *   that could pair with markup still to come, so no style and no markup can span it.
 *
 * The lines moved past are final (a whole render starts with them), so the last of them are kept
 * and shown above the lines rendered from the start: a frame renders only the reply's last few
 * lines, whatever the rows in sight. The whole reply is rendered once, when complete, for the
 * history. Stateful: one per live reply.
 */
import { stripVTControlCharacters } from 'node:util';
import { renderMarkdown } from './markdown.js';

export interface StreamingView {
  /** The rendered reply from the current start. */
  text: string;
  /** Rendered lines before the start (moved past). */
  hiddenLines: number;
}

/** Lines rendered from the start before it moves on, and the fewest it leaves to render when it does. */
const MAX_LINES = 8;
const KEEP_LINES = 3;
/** Lines moved past that are kept for the view: with those rendered, more than the live area shows. */
const SETTLED_LINES = 20;

/** A line that would open a block other than a paragraph (list, quote, heading, fence, table, HTML, setext rule). */
const BLOCK_START = /^(?:[-+*>#|<`~=]|\d+[.)])/;

/** A list's item: after a blank line it may still belong to the list above (which sizes its markers together). */
const LIST_ITEM = /^(?:[-+*]|\d+[.)])(?:\s|$)/;

/** Where the first block after a blank line starts on its own: outside a fence, at column 0, not a list's item. */
function blockBoundary(text: string): number | undefined {
  let fences = 0;
  let lineStart = 0;
  let previousBlank = false;
  while (lineStart <= text.length) {
    const end = text.indexOf('\n', lineStart);
    const line = text.slice(lineStart, end < 0 ? text.length : end);
    if (/^ {0,3}(?:```|~~~)/.test(line)) fences++;
    const blank = line.trim() === '';
    // The first will do: the start moves on a block at a time, as long as enough is left after it.
    if (previousBlank && !blank && fences % 2 === 0 && end >= 0 && !/^\s/.test(line) && !LIST_ITEM.test(line))
      return lineStart;
    previousBlank = blank && fences % 2 === 0;
    if (end < 0) break;
    lineStart = end + 1;
  }
  return undefined;
}

/**
 * Characters that may pair with one further on (emphasis, code, strike-through, a link's text, a
 * tag): shown as typed while the reply is unfinished, they may become markup when the rest
 * arrives, so the start never moves past one.
 */
const PAIRED = /[*_`~[\]<>]/;

/** Words as a person reads them: whitespace-separated, escapes gone. */
const wordsOf = (text: string): string[] => stripVTControlCharacters(text).split(/\s+/).filter(Boolean);

/**
 * In a plain paragraph rendered as `lines`, the offset in `source` where line `line` starts, when
 * the words before it are exactly those of the source (nothing between them is markup).
 */
function paragraphLineStart(source: string, lines: string[], line: number): number | undefined {
  if (!/^\S/.test(source) || BLOCK_START.test(source) || source.trimEnd().includes('\n\n')) return undefined;
  const shown = wordsOf(lines.slice(0, line).join(' '));
  const words = /\S+/g;
  for (const word of shown) {
    const next = words.exec(source);
    if (next?.[0] !== word || PAIRED.test(word)) return undefined;
  }
  const start = words.exec(source);
  if (!start || BLOCK_START.test(start[0])) return undefined;
  return start.index;
}

export class StreamingMarkdown {
  /** The source before the start: the reply must go on from it. */
  private before = '';
  /** Rendered lines before the start: the last `SETTLED_LINES` of them, and how many in all. */
  private settled: string[] = [];
  private passed = 0;
  private width = 0;

  /** `renderLines`: markdown to terminal lines (a seam for tests that count what a frame renders). */
  constructor(private readonly renderLines: (text: string, width: number) => string = renderMarkdown) {}

  render(text: string, width: number): StreamingView {
    // A text that does not go on from the last one (a new reply), or a new width, starts from the beginning.
    if (!text.startsWith(this.before) || width !== this.width) {
      this.before = '';
      this.settled = [];
      this.passed = 0;
      this.width = width;
    }
    const rest = text.slice(this.before.length);
    let lines = this.renderLines(rest, this.width).split('\n');
    if (lines.length > MAX_LINES) {
      const moved = this.moveOn(rest, lines);
      if (moved) {
        this.before = text.slice(0, this.before.length + moved.by);
        const passedNow = lines.slice(0, lines.length - moved.lines.length);
        this.settled = [...this.settled, ...passedNow].slice(-SETTLED_LINES);
        this.passed += passedNow.length;
        lines = moved.lines;
      }
    }
    return { text: [...this.settled, ...lines].join('\n'), hiddenLines: this.passed - this.settled.length };
  }

  /**
   * A later start within `rest` that leaves at least `KEEP_LINES` lines, with the lines from it:
   * the next block, or else a wrapped line of the first block.
   */
  private moveOn(rest: string, lines: string[]): { by: number; lines: string[] } | undefined {
    const boundary = blockBoundary(rest);
    let blockLines = lines.length;
    if (boundary !== undefined) {
      const after = this.renderLines(rest.slice(boundary), this.width).split('\n');
      if (after.length >= KEEP_LINES) return { by: boundary, lines: after };
      // The blocks are rendered a blank line apart.
      blockLines = lines.length - after.length - 1;
    }
    const line = Math.min(blockLines - 1, lines.length - KEEP_LINES);
    if (line <= 0) return undefined;
    const offset = paragraphLineStart(rest.slice(0, boundary), lines.slice(0, blockLines), line);
    return offset === undefined ? undefined : { by: offset, lines: lines.slice(line) };
  }
}
