/**
 * A model's reply as the REPL draws it (`renderMarkdown` at 80 columns): nested lists, a quote, a
 * table and code, checked as the text on screen and, where the slip was a style, as the styling.
 */
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it, vi } from 'vitest';

// The REPL draws on a terminal; these tests' stdout is a pipe, where chalk (through
// marked-terminal) would style nothing. Set before marked-terminal loads chalk.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

const { loadMarkdownRenderer, renderMarkdown } = await import('../../src/ui/markdown.js');
// As the chat has it once drawn: markdown other than plain prose goes through marked.
await loadMarkdownRenderer();

const ESC = '\u001b';
const BOLD = `${ESC}[1m`;
const RESET = `${ESC}[0m`;

const REPLY = [
  'Here is the plan:',
  '',
  '1. First point with **bold** and `code`',
  '2. Second point, long enough to wrap past the right edge of an eighty column terminal window for sure',
  '   - nested *italic* item',
  '   - another nested item that is also long enough to wrap at eighty columns in the terminal',
  '3. Third',
  '',
  '> A quoted line with **bold** inside, and long enough to wrap onto a second line in the terminal too.',
  '',
  '| Tool | Use |',
  '|------|-----|',
  '| `evaluate` | math **fast** |',
  '| read_file | files |',
  '',
  '```js',
  'const answer = computeSomethingVeryLongNamed(argumentNumberOne, argumentNumberTwo, argumentThree);',
  '```',
  '',
  '- [ ] a task',
  '- plain **bold** bullet',
].join('\n');

/** What the screen shows, line by line, without the styling. */
const screenOf = (rendered: string): string[] => stripVTControlCharacters(rendered).split('\n');

describe('markdown in the REPL', () => {
  it('a reply with nested lists, a quote, a table and code reads right at 80 columns, every line within them', () => {
    const screen = screenOf(renderMarkdown(REPLY, 80));
    expect(screen).toEqual([
      'Here is the plan:',
      '',
      '1. First point with bold and code',
      '2. Second point, long enough to wrap past the right edge of an eighty column',
      '   terminal window for sure',
      '   * nested italic item',
      '   * another nested item that is also long enough to wrap at eighty columns in',
      '     the terminal',
      '3. Third',
      '',
      '  A quoted line with bold inside, and long enough to wrap onto a second line in',
      '  the terminal too.',
      '',
      '┌───────────┬───────────┐',
      '│ Tool      │ Use       │',
      '├───────────┼───────────┤',
      '│ evaluate  │ math fast │',
      '├───────────┼───────────┤',
      '│ read_file │ files     │',
      '└───────────┴───────────┘',
      '',
      '  const answer = computeSomethingVeryLongNamed(argumentNumberOne, argumentNumber',
      '  Two, argumentThree);',
      '',
      '* [ ] a task',
      '* plain bold bullet',
    ]);
    for (const line of screen) expect(Array.from(line).length).toBeLessThanOrEqual(80);
  });

  it('inline formatting inside a list item is styled, not printed as its source (**bold**, `code`)', () => {
    const rendered = renderMarkdown('1. First point with **bold** and `code`\n2. plain **bold** too', 80);
    const [first, second] = rendered.split('\n');
    expect(first).toContain(`${BOLD}bold${ESC}[22m`);
    expect(first).toMatch(new RegExp(`${ESC}\\[33mcode${ESC}\\[39m`));
    expect(second).toContain(`${BOLD}bold`);
    expect(stripVTControlCharacters(rendered)).not.toMatch(/\*\*|`/);
  });

  it("a blockquote's style covers its whole text: no reset between the style and the words", () => {
    const quote = renderMarkdown(
      '> A quoted line with **bold** inside, and long enough to wrap onto a second line in the terminal too.',
      80,
    ).split('\n');
    expect(quote).toHaveLength(2);
    for (const line of quote) {
      // Styled from its first column (the indent) to its last word, never reset in between.
      expect(line.startsWith(`${ESC}[`)).toBe(true);
      expect(line).not.toContain(RESET);
    }
    expect(quote[0]).toContain(`${BOLD}bold`);
  });

  it('wrapped list, quote and code lines keep their indent, also nested inside a list item', () => {
    const reply = [
      '- item with a quote',
      '  > quoted in a list item and long enough to wrap around at forty columns',
      '- item with code:',
      '  ```',
      '  npm install some-package-with-a-very-long-name another-package',
      '  ```',
    ].join('\n');
    expect(screenOf(renderMarkdown(reply, 40))).toEqual([
      '* item with a quote',
      '    quoted in a list item and long',
      '    enough to wrap around at forty',
      '    columns',
      '* item with code:',
      '    npm install some-package-with-a-very',
      '    -long-name another-package',
    ]);
  });

  it('a style cut by a line break is closed at the break and reopened after the indent, which stays unstyled', () => {
    const lines = renderMarkdown(
      '9. nine with **a bold phrase that runs long enough to cross the line** end',
      40,
    ).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]?.endsWith(RESET)).toBe(true);
    expect(lines[1]?.startsWith(`   ${BOLD}`)).toBe(true);
    expect(stripVTControlCharacters(lines[1] ?? '')).toBe('   long enough to cross the line end');
  });
});
