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

const ESC = '\u001b';
/** Style sequences (SGR) and OSC 8 hyperlinks, which marked-terminal writes; then spaces, then text. */
const PIECES = new RegExp(`${ESC}\\[[0-9;]*m|${ESC}\\]8;[^\\u0007]*\\u0007|[ \\t\\n]+|[^ \\t\\n${ESC}]+|${ESC}`, 'g');
const STYLE = new RegExp(`^${ESC}\\[([0-9;]*)m$`);
const RESET_ALL = `${ESC}[0m`;

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

interface Piece {
  kind: 'escape' | 'space' | 'text';
  text: string;
}

function piecesOf(line: string): Piece[] {
  return Array.from(line.matchAll(PIECES), ([text]) => ({
    kind: text.startsWith(ESC) ? 'escape' : /^[ \t\n]/.test(text) ? 'space' : 'text',
    text,
  }));
}

/** Code points; the code units are counted until a surrogate pair (two units, one point) turns up. */
function columns(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdfff) return Array.from(text).length;
  }
  return text.length;
}

const styleCode = (sequence: string): number => Number(STYLE.exec(sequence)?.[1]?.split(';')[0] || 0);

/** Lines being filled up to `width` columns, carrying open styles across each break. */
class LineFiller {
  private readonly lines: string[] = [];
  private current = '';
  private used = 0;
  private openStyles: string[] = [];

  constructor(private readonly width: number) {}

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
function placeWord(filler: LineFiller, word: Piece[]): void {
  const width = word.reduce((sum, piece) => sum + (piece.kind === 'text' ? columns(piece.text) : 0), 0);
  if (width > 0 && !filler.empty) {
    if (width + 1 <= filler.room) filler.text(' ');
    else filler.break();
  }
  // A word longer than the whole line is cut; any other fits the line it is now on.
  const longer = width > filler.room;
  for (const piece of word) {
    if (piece.kind === 'escape') filler.escape(piece.text);
    else if (longer) filler.cut(piece.text);
    else filler.text(piece.text);
  }
}

/** Prose: words move to the next line whole; runs of spaces and soft newlines become one space. */
export function wrapWords(text: string, width: number): string[] {
  return text.split(HARD_BREAK).flatMap((hardLine) => {
    const filler = new LineFiller(width);
    let word: Piece[] = [];
    for (const piece of piecesOf(hardLine)) {
      if (piece.kind !== 'space') {
        word.push(piece);
        continue;
      }
      placeWord(filler, word);
      word = [];
    }
    placeWord(filler, word);
    return filler.finish();
  });
}

/** Code: every character kept, spaces included, the line cut at `width`. */
export function cutLine(line: string, width: number): string[] {
  const filler = new LineFiller(width);
  for (const piece of piecesOf(line)) {
    if (piece.kind === 'escape') filler.escape(piece.text);
    else filler.cut(piece.text);
  }
  return filler.finish();
}
