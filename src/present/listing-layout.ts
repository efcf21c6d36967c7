/**
 * Listings for people (`tools`, `help`, `prompts`, `resources`, `sessions`) laid out to a width:
 * a name and what it is in two columns, the second aligned, and a line too long for the width
 * wrapped with a hanging indent, under the start of its text column, never back to column 0.
 */
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';

/** A first column wider than this does not push the second further: its text then follows two spaces on. */
const MAX_NAME_COLUMN = 28;

/** Where a line's text column starts when it has none of its own: this far in from its indentation. */
const HANG = 2;

/** Rows of a name and its text, the texts aligned; a row with no text is its name alone. */
export function twoColumns(rows: readonly (readonly [string, string])[], indent = ''): string[] {
  const column = Math.min(MAX_NAME_COLUMN, Math.max(0, ...rows.map(([name]) => stringWidth(name))));
  return rows.map(([name, text]) => {
    if (text === '') return `${indent}${name}`;
    const pad = ' '.repeat(Math.max(0, column - stringWidth(name)));
    return `${indent}${name}${pad}  ${text}`;
  });
}

/** A line within `width`: wrapped under its text column (after the first gap of two spaces past its name), else a little in. */
function wrapLine(line: string, width: number): string[] {
  if (stringWidth(line) <= width) return [line];
  const indent = /^ */.exec(line)?.[0] ?? '';
  const gap = /^ *\S.*?\S? {2,}(?=\S)/.exec(line)?.[0];
  // A text column past half the width would leave its text a few words a line.
  const aligned = gap !== undefined && stringWidth(gap) <= width / 2;
  const head = aligned ? gap : indent;
  const hang = aligned ? stringWidth(gap) : indent.length + HANG;
  const pieces = wrapAnsi(line.slice(head.length), width - hang, { hard: true, trim: true }).split('\n');
  return pieces.map((piece, index) => (index === 0 ? head : ' '.repeat(hang)) + piece);
}

/** Every line of `text` within `width` columns, each too long one wrapped under its text column. */
export function wrapListing(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width))
    .join('\n');
}
