/**
 * Tables and code wider than the terminal, as the REPL draws them (`renderMarkdown`): a table's
 * columns shrink and its cells wrap so every border stays whole, and a long code line goes on under
 * its own indentation.
 */
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadMarkdownRenderer, renderMarkdown } from '../../src/ui/markdown.js';
import { fitColumns } from '../../src/ui/markdown-table.js';

// As the chat has it once drawn: markdown other than plain prose goes through marked.
await loadMarkdownRenderer();

const screenOf = (rendered: string): string[] => stripVTControlCharacters(rendered).split('\n');

const WIDE_TABLE = [
  '| Server | What it does | Tools | Notes |',
  '|:--|:--|--:|:-:|',
  '| filesystem | Reads, writes and searches files under the allowed roots, refusing any path outside them | 14 | stdio, started by npx |',
  '| everything | Exercises every feature of the protocol: prompts, resources, sampling, elicitation and tasks | 11 | for testing |',
  '| calculator | Evaluates arithmetic | 1 | built in |',
].join('\n');

/** Each row of the drawn table as its cells' text, the borders gone; a border row as `null`. */
function cellsOf(line: string): string[] | null {
  if (/^[┌├└]/.test(line)) return null;
  return line.slice(1, -1).split('│');
}

/** The table's rows, each cell's lines joined: the lines between two border rows make one row. */
function rowsOf(screen: string[]): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  for (const line of screen) {
    const cells = cellsOf(line);
    if (cells === null) {
      if (row.length > 0) rows.push(row);
      row = [];
    } else row = cells.map((cell, index) => `${row[index] ?? ''} ${cell}`);
  }
  return rows;
}

describe('a table wider than the terminal', () => {
  for (const width of [80, 60, 40]) {
    it(`fits ${width} columns with every border whole, and every word of it still shown`, () => {
      const screen = screenOf(renderMarkdown(WIDE_TABLE, width));
      expect(screen.length).toBeGreaterThan(9);
      const drawn = Array.from(screen[0] ?? '').length;
      for (const line of screen) {
        expect(Array.from(line).length).toBe(drawn);
        expect(drawn).toBeLessThanOrEqual(width);
        expect(line).toMatch(/^[┌│├└].*[┐│┤┘]$/u);
      }
      // The column borders line up on every row.
      const joints = (line: string): number[] =>
        Array.from(line).flatMap((char, index) => ('┌┬┐│├┼┤└┴┘'.includes(char) ? [index] : []));
      for (const line of screen) expect(joints(line)).toEqual(joints(screen[0] ?? ''));
      // Each cell's text, read down its column, is the markdown's, words cut at the edge included.
      const squeezed = (text: string): string => text.replace(/\s+/g, '');
      expect(rowsOf(screen).map((row) => row.map(squeezed))).toEqual(
        WIDE_TABLE.split('\n')
          .filter((_, index) => index !== 1)
          .map((line) => line.slice(1, -1).split('|').map(squeezed)),
      );
    });
  }

  it('keeps the alignment the markdown asks for: left, right and centred columns', () => {
    const rows = screenOf(renderMarkdown(WIDE_TABLE, 80))
      .map(cellsOf)
      .filter((row) => row !== null);
    const calculator = rows.find((row) => row[0]?.includes('calculator'));
    expect(calculator?.[0]).toMatch(/^ calculator +$/);
    expect(calculator?.[2]).toMatch(/^ +1 $/);
    const notes = calculator?.[3] ?? '';
    const [before, after] = [/^ */.exec(notes)?.[0].length ?? 0, / *$/.exec(notes)?.[0].length ?? 0];
    expect(Math.abs(before - after)).toBeLessThanOrEqual(1);
    expect(before).toBeGreaterThan(1);
  });

  it('is drawn as it was when it fits: no column wider than its text', () => {
    expect(screenOf(renderMarkdown('| a | b |\n|--|--|\n| one | two |', 80))).toEqual([
      '┌─────┬─────┐',
      '│ a   │ b   │',
      '├─────┼─────┤',
      '│ one │ two │',
      '└─────┴─────┘',
    ]);
  });
});

describe('column widths', () => {
  it('narrow columns keep their width and the wide ones share what is left', () => {
    expect(fitColumns([10, 90, 90], [10, 12, 8], 70)).toEqual([10, 30, 30]);
  });

  it('a column keeps its longest word before another column grows past its own', () => {
    expect(fitColumns([40, 40], [30, 5], 50)).toEqual([30, 20]);
  });

  it('when even the longest words do not fit, every column still gets a letter', () => {
    const widths = fitColumns([50, 50, 50], [50, 50, 50], 10);
    expect(widths.reduce((sum, width) => sum + width, 0)).toBe(10);
    for (const width of widths) expect(width).toBeGreaterThanOrEqual(1);
  });
});

describe('a code line wider than the terminal', () => {
  it('goes on under its own indentation, inside the block', () => {
    const code = [
      '```',
      'function f() {',
      '    return computeSomethingVeryLongNamed(argumentNumberOne, argumentNumberTwo, argumentThree);',
      '}',
      '```',
    ].join('\n');
    expect(screenOf(renderMarkdown(code, 60))).toEqual([
      '  function f() {',
      '      return computeSomethingVeryLongNamed(argumentNumberOne',
      '      , argumentNumberTwo, argumentThree);',
      '  }',
    ]);
  });
});
