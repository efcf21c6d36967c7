/** Listings for people at a width: two aligned columns, and long lines wrapped under their text column. */
import { describe, expect, it } from 'vitest';
import { twoColumns, wrapListing } from '../../src/present/listing-layout.js';

describe('listing layout', () => {
  it('aligns the second column past the widest name, and a very wide name does not push the others', () => {
    expect(
      twoColumns(
        [
          ['help', 'show this help'],
          ['loglevel', 'set levels'],
          ['x', ''],
        ],
        '  ',
      ),
    ).toEqual(['  help      show this help', '  loglevel  set levels', '  x']);
    const [wide, narrow] = twoColumns([
      ['a'.repeat(40), 'one'],
      ['b', 'two'],
    ]);
    expect(wide).toBe(`${'a'.repeat(40)}  one`);
    expect(narrow).toBe(`b${' '.repeat(27)}  two`);
  });

  it('wraps a long line under its text column, every line within the width', () => {
    const line = `  compact   ${'replace the earlier turns with a summary the model writes, keeping the latest ones'}`;
    const wrapped = wrapListing(line, 50).split('\n');
    expect(wrapped).toEqual([
      '  compact   replace the earlier turns with a',
      '            summary the model writes, keeping the',
      '            latest ones',
    ]);
  });

  it('a line with no text column hangs a little in from its indentation; short lines stay as they are', () => {
    const text = `short line\n  ${'word '.repeat(12).trim()}`;
    expect(wrapListing(text, 30).split('\n')).toEqual([
      'short line',
      '  word word word word word',
      '    word word word word word',
      '    word word',
    ]);
  });

  it('a word longer than the room is cut, so no line passes the width', () => {
    const lines = wrapListing(`  name  ${'x'.repeat(100)}`, 40).split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines.join('').replaceAll(' ', '')).toBe(`name${'x'.repeat(100)}`);
  });
});
