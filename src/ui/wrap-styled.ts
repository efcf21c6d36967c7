/**
 * Styled terminal text cut to a width, for the markdown renderer, which must wrap each block to
 * the room left by its indentation (a list item's text under its marker, a code line under its
 * indent): the terminal, or Ink, would otherwise wrap at the screen's edge and lose the indent.
 *
 * Escape sequences take no room. A style still open at a line break is closed there and reopened
 * on the next line, so the indentation the caller puts before that line is never styled
 * (underlined, struck through). Widths count code points: a wide character (CJK, emoji) counts as
 * one column, as it does for marked-terminal.
 */

/** A hard line break inside a block (a markdown `br`); a bare newline is a soft one, read as a space. */
export const HARD_BREAK = '\r';

/** The narrowest width markdown is rendered to: below it, a width is taken as this. */
export const MIN_MARKDOWN_WIDTH = 20;

const ESC = '\u001b';
const STYLE = new RegExp(`^${ESC}\\[([0-9;]*)m$`);
const RESET_ALL = `${ESC}[0m`;

const CODE = { esc: 0x1b, bracket: 0x5b, closing: 0x5d, m: 0x6d, semicolon: 0x3b, zero: 0x30, nine: 0x39 };

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
  private readonly lines: string[] = [];
  private current = '';
  private used = 0;
  private openStyles: string[] = [];

  /** `later`: the width of the lines after the first (a hanging indent's), the first's when not given. */
  constructor(
    private width: number,
    private readonly later = width,
  ) {}

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
    this.width = this.later;
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

/** Prose: words move to the next line whole; runs of spaces and soft newlines become one space. */
export function wrapWords(text: string, width: number): string[] {
  return text.split(HARD_BREAK).flatMap((line) => wrapLine(line, width));
}

function wrapLine(line: string, width: number): string[] {
  const filler = new LineFiller(width);
  let word: string[] = [];
  for (let at = 0; at < line.length;) {
    const end = pieceEnd(line, at);
    const piece = line.slice(at, end);
    at = end;
    if (isSpace(piece.charCodeAt(0))) {
      placeWord(filler, word);
      word = [];
    } else word.push(piece);
  }
  placeWord(filler, word);
  return filler.finish();
}

/** Code: every character kept, spaces included, the line cut at `width`, and its later pieces at `later`. */
export function cutLine(line: string, width: number, later = width): string[] {
  const filler = new LineFiller(width, later);
  for (let at = 0; at < line.length;) {
    const end = pieceEnd(line, at);
    const piece = line.slice(at, end);
    at = end;
    if (isEscape(piece)) filler.escape(piece);
    else filler.cut(piece);
  }
  return filler.finish();
}
