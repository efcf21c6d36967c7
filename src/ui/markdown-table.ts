/**
 * Markdown tables laid out to a width. marked-terminal hands every cell to cli-table3 at its full
 * length, so a table wider than the terminal had each row wrapped back to column 0 by the terminal
 * and every border broken. Here the columns shrink to fit (a column keeps its longest word while
 * the width allows), each cell is wrapped to its column, and cli-table3 draws the borders and the
 * alignment the markdown asks for (`:--`, `:-:`, `--:`).
 */
import Table from 'cli-table3';
import type { Tokens } from 'marked';
import { stripVTControlCharacters } from 'node:util';
import { HARD_BREAK, wrapWords } from './wrap-styled.js';

/** cli-table3's padding: one space each side of a cell's text. */
const PADDING = 2;

/** Columns as many as the widest text of each asks (`natural`), shrunk to `room` columns in all. */
export function fitColumns(natural: number[], longestWord: number[], room: number): number[] {
  if (natural.reduce((sum, width) => sum + width, 0) <= room) return natural;
  const widths = natural.map(() => 0);
  // First each column's longest word, as far as the room goes; then what is left, to the narrowest.
  const left = widen(
    widths,
    natural.map((width, index) => Math.min(width, longestWord[index] ?? width)),
    room,
  );
  widen(widths, natural, left);
  // A column narrower than one letter cannot be drawn: past that, the table overflows.
  return widths.map((width) => Math.max(1, width));
}

/**
 * Gives `budget` columns out one at a time, each to the narrowest of `widths` still under its
 * limit, so narrow columns are met whole and wide ones end up even; returns what is left.
 */
function widen(widths: number[], limits: number[], budget: number): number {
  let left = budget;
  for (; left > 0; left--) {
    let pick = -1;
    for (const [index, width] of widths.entries()) {
      if (width < (limits[index] ?? 0) && (pick < 0 || width < (widths[pick] ?? 0))) pick = index;
    }
    if (pick < 0) break;
    widths[pick] = (widths[pick] ?? 0) + 1;
  }
  return left;
}

const columnsOf = (text: string): number => Array.from(stripVTControlCharacters(text)).length;

const widest = (texts: string[]): number => Math.max(0, ...texts.map(columnsOf));

/** The table at `width` columns, borders included; `renderCell` gives a cell's styled text. */
export function renderTable(
  token: Tokens.Table,
  width: number,
  renderCell: (cell: Tokens.TableCell) => string,
): string[] {
  const rows = [token.header, ...token.rows].map((row) => row.map(renderCell));
  const count = token.header.length;
  const column = (index: number): string[] => rows.map((row) => row[index] ?? '');
  const indexes = Array.from({ length: count }, (_, index) => index);
  const lines = (index: number): string[] => column(index).flatMap((cell) => cell.split(HARD_BREAK));
  const natural = indexes.map((index) => widest(lines(index)));
  const longestWord = indexes.map((index) => widest(lines(index).flatMap((line) => line.split(/\s+/))));
  // Borders: one between each two columns and one at each side.
  const room = width - (count + 1) - count * PADDING;
  const widths = fitColumns(natural, longestWord, room);
  const wrap = (cell: string, index: number): string => wrapWords(cell, widths[index] ?? 1).join('\n');
  const [head = [], ...body] = rows.map((row) => row.map(wrap));
  const table = new Table({
    head,
    colWidths: widths.map((columnWidth) => columnWidth + PADDING),
    colAligns: token.align.map((align) => align ?? 'left'),
  });
  table.push(...body);
  return table.toString().split('\n');
}
