/**
 * The live block of a streaming reply, rendered at a cost that does not grow with it: a long plain
 * paragraph is rendered from a start that moves on past its wrapped lines, which are final.
 * Stateful: one per live reply.
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
   * A later start within `rest`, at a wrapped line of a plain paragraph that leaves `KEEP_LINES`
   * lines, with the lines from it. Greedy wrapping makes the lines from a line that starts at a
   * word depend on the words from there alone.
   */
  private moveOn(rest: string, lines: string[]): { by: number; lines: string[] } | undefined {
    const line = lines.length - KEEP_LINES;
    const offset = paragraphLineStart(rest, lines, line);
    return offset === undefined ? undefined : { by: offset, lines: lines.slice(line) };
  }
}
