/**
 * Styled terminal text cut to a width, for the markdown renderer, which must wrap each block to
 * the room left by its indentation (a list item's text under its marker, a code line under its
 * indent): the terminal, or Ink, would otherwise wrap at the screen's edge and lose the indent.
 *
 * Escape sequences take no room. A style still open at a line break is closed there and reopened
 * on the next line, so the indentation the caller puts before that line is never styled
 * (underlined, struck through). Widths count code points: a wide character (CJK, emoji) counts as
 * one column, as it does for marked-terminal.
 *
 * A streaming reply's paragraph is wrapped again at every frame, a few words longer each time.
 * Greedy wrapping never moves a word once a later one is placed, so the wrapper remembers where
 * the last paragraphs it wrapped stood at their last space and goes on from there when a text
 * starts with what it had then: a frame wraps the words that came since, not the paragraph.
 */

/** A hard line break inside a block (a markdown `br`); a bare newline is a soft one, read as a space. */
export const HARD_BREAK = '\r';

const ESC = '\u001b';
const STYLE = new RegExp(`^${ESC}\\[([0-9;]*)m$`);
const RESET_ALL = `${ESC}[0m`;

const CODE = { esc: 0x1b, bel: 0x07, bracket: 0x5b, closing: 0x5d, m: 0x6d, semicolon: 0x3b, zero: 0x30, nine: 0x39 };

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a;
const isStyleParameter = (code: number): boolean => (code >= CODE.zero && code <= CODE.nine) || code === CODE.semicolon;

/**
 * Where the piece that starts at `from` ends. A piece is a style sequence (SGR, `ESC[…m`), an
 * OSC 8 hyperlink sequence (`ESC]8;…BEL`), a run of spaces, tabs and newlines, a run of anything
 * else but ESC, or a lone ESC that starts no sequence.
 */
function pieceEnd(line: string, from: number): number {
  const first = line.charCodeAt(from);
  let at = from + 1;
  if (first === CODE.esc) {
    const next = line.charCodeAt(at);
    if (next === CODE.bracket) {
      let end = at + 1;
      while (isStyleParameter(line.charCodeAt(end))) end++;
      if (line.charCodeAt(end) === CODE.m) return end + 1;
    } else if (next === CODE.closing && line.startsWith('8;', at + 1)) {
      const bell = line.indexOf('\u0007', at + 3);
      if (bell >= 0) return bell + 1;
    }
    return at;
  }
  const space = isSpace(first);
  while (at < line.length) {
    const code = line.charCodeAt(at);
    if (space ? !isSpace(code) : isSpace(code) || code === CODE.esc) break;
    at++;
  }
  return at;
}

/**
 * The SGR code that ends a style (bold and dim end with 22, a colour with 39 or 49, …), from the
 * style's first parameter; 0 for a full reset, which ends every style.
 */
function closerOf(code: number): number {
  if (code === 1 || code === 2) return 22;
  if ((code >= 30 && code <= 38) || (code >= 90 && code <= 97)) return 39;
  if ((code >= 40 && code <= 48) || (code >= 100 && code <= 107)) return 49;
  if (code >= 3 && code <= 9) return code + 20;
  return code;
}

/** Code points; the code units are counted until a surrogate pair (two units, one point) turns up. */
function columns(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdfff) return Array.from(text).length;
  }
  return text.length;
}

const isEscape = (piece: string): boolean => piece.charCodeAt(0) === CODE.esc;

const styleCode = (sequence: string): number => Number(STYLE.exec(sequence)?.[1]?.split(';')[0] || 0);

/** Lines being filled up to `width` columns, carrying open styles across each break. */
class LineFiller {
  private constructor(
    private readonly width: number,
    private readonly lines: string[],
    private current: string,
    private used: number,
    private openStyles: string[],
  ) {}

  static start(width: number): LineFiller {
    return new LineFiller(width, [], '', 0, []);
  }

  /** The same filler, to go on filling without changing this one. */
  copy(): LineFiller {
    return new LineFiller(this.width, [...this.lines], this.current, this.used, [...this.openStyles]);
  }

  get room(): number {
    return this.width - this.used;
  }

  get empty(): boolean {
    return this.used === 0;
  }

  escape(sequence: string): void {
    this.current += sequence;
    if (!STYLE.test(sequence)) return; // a hyperlink: nothing to carry
    const code = styleCode(sequence);
    if (closerOf(code) !== code) {
      this.openStyles.push(sequence);
      return;
    }
    // A closing code ends the styles it closes; 0, a reset, ends them all.
    this.openStyles = this.openStyles.filter((open) => code !== 0 && closerOf(styleCode(open)) !== code);
  }

  text(text: string): void {
    this.current += text;
    this.used += columns(text);
  }

  /** Writes `text` a character at a time, breaking wherever the line is full. */
  cut(text: string): void {
    for (const char of text) {
      if (this.room <= 0) this.break();
      this.text(char);
    }
  }

  break(): void {
    this.lines.push(this.openStyles.length > 0 ? this.current + RESET_ALL : this.current);
    this.current = this.openStyles.join('');
    this.used = 0;
  }

  finish(): string[] {
    return [...this.lines, this.current];
  }
}

/** Puts one word (text and the escapes inside or around it) on the line, or on the next one. */
function placeWord(filler: LineFiller, word: string[]): void {
  const width = word.reduce((sum, piece) => sum + (isEscape(piece) ? 0 : columns(piece)), 0);
  if (width > 0 && !filler.empty) {
    if (width + 1 <= filler.room) filler.text(' ');
    else filler.break();
  }
  // A word longer than the whole line is cut; any other fits the line it is now on.
  const longer = width > filler.room;
  for (const piece of word) {
    if (isEscape(piece)) filler.escape(piece);
    else if (longer) filler.cut(piece);
    else filler.text(piece);
  }
}

/** A line wrapped up to its last space: every word before it placed for good. */
interface PlacedPrefix {
  width: number;
  /** The line up to and with that space. */
  text: string;
  filler: LineFiller;
}

/** Lines wrapped lately, to go on from: a frame wraps the few paragraphs it shows. */
const REMEMBERED_LINES = 8;

/**
 * Where the line's first hyperlink start with no BEL after it is (its length if none): wrapped so
 * far, its ESC is a lone one, but a BEL further on in a longer line makes it a link, so no start of
 * the line past it is remembered.
 */
function openLinkAt(line: string): number {
  const open = line.indexOf('\u001b]8;', line.lastIndexOf('\u0007') + 1);
  return open < 0 ? line.length : open;
}

/** Wraps prose, going on from where a line it wrapped before left off when the new one starts with it. */
export class WordWrapper {
  private recent: PlacedPrefix[] = [];

  /** Prose: words move to the next line whole; runs of spaces and soft newlines become one space. */
  wrap(text: string, width: number): string[] {
    return text.split(HARD_BREAK).flatMap((line) => this.wrapLine(line, width));
  }

  private wrapLine(line: string, width: number): string[] {
    const resumed = this.longestStart(line, width);
    const filler = resumed ? resumed.filler.copy() : LineFiller.start(width);
    let word: string[] = [];
    let placedUpTo = resumed ? resumed.text.length : 0;
    for (let at = placedUpTo; at < line.length;) {
      const end = pieceEnd(line, at);
      const piece = line.slice(at, end);
      at = end;
      if (!isSpace(piece.charCodeAt(0))) {
        word.push(piece);
        continue;
      }
      placeWord(filler, word);
      word = [];
      placedUpTo = at;
    }
    // Kept before the last word is placed: that word may still grow.
    if (placedUpTo > (resumed?.text.length ?? 0) && placedUpTo <= openLinkAt(line))
      this.remember({ width, text: line.slice(0, placedUpTo), filler: filler.copy() });
    placeWord(filler, word);
    return filler.finish();
  }

  /** The longest line remembered that `line` starts with, wrapped at `width`. */
  private longestStart(line: string, width: number): PlacedPrefix | undefined {
    let best: PlacedPrefix | undefined;
    for (const prefix of this.recent) {
      if (prefix.width !== width || prefix.text.length <= (best?.text.length ?? 0)) continue;
      if (line.startsWith(prefix.text)) best = prefix;
    }
    return best;
  }

  private remember(prefix: PlacedPrefix): void {
    // A longer start of the same line replaces the one it grew from.
    this.recent = [prefix, ...this.recent.filter((kept) => !prefix.text.startsWith(kept.text))].slice(
      0,
      REMEMBERED_LINES,
    );
  }
}

const wrapper = new WordWrapper();

/** Prose: words move to the next line whole; runs of spaces and soft newlines become one space. */
export function wrapWords(text: string, width: number): string[] {
  return wrapper.wrap(text, width);
}

/** Code: every character kept, spaces included, the line cut at `width`. */
export function cutLine(line: string, width: number): string[] {
  const filler = LineFiller.start(width);
  for (let at = 0; at < line.length;) {
    const end = pieceEnd(line, at);
    const piece = line.slice(at, end);
    at = end;
    if (isEscape(piece)) filler.escape(piece);
    else filler.cut(piece);
  }
  return filler.finish();
}
