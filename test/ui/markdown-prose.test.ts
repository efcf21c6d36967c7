/**
 * Plain prose takes a shorter path than marked (`renderMarkdown` wraps its words); it must give
 * exactly what marked gives, for prose and for everything that only looks like it: a list's
 * marker, a heading, a hard break, an autolink, an emoji code, an entity.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { CPU_BOUND_MS } from '../helpers/ceilings.js';

// As on a terminal: chalk (through marked-terminal) styles only where colour is on.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

const { loadMarkdownRenderer, renderMarkdown } = await import('../../src/ui/markdown.js');
const { renderThroughMarked } = await import('../../src/ui/markdown-terminal.js');
// As the chat has it once drawn: markdown other than plain prose goes through marked.
await loadMarkdownRenderer();

const RUNS = 3_000;

/** Words of prose, and pieces that make text markup when they come in the right place. */
const PROSE_WORDS = [
  'a',
  'word',
  'Prose',
  'r7t0042',
  '3.5',
  "it's",
  '"quoted"',
  '(aside)',
  'end.',
  'yes!',
  'why?',
  'x-y',
  '-',
  '--',
  '1.',
  '2)',
  'www',
  'com',
];
const MARKUP_PIECES = [
  'www.example.com',
  'a@b.io',
  ':smile:',
  '&amp;',
  '**',
  '_',
  '`',
  '#',
  '>',
  '|',
  '[x]',
  '\\',
  '  ',
  '    ',
  '=',
];
const SEPARATORS = [' ', ' ', ' ', '  ', '\n', ' \n', '  \n', '\n\n', '\n ', '\n    '];

const text = (pieces: string[]): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(fc.constantFrom(...pieces), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 60 })
    .map((parts) => parts.map(([word, separator]) => word + separator).join(''));

const width = fc.integer({ min: 8, max: 100 });

describe('markdown: plain prose rendered without marked', () => {
  it(
    'prose renders exactly as marked renders it, at any width',
    () => {
      fc.assert(
        fc.property(text(PROSE_WORDS), width, (prose, columns) => {
          expect(renderMarkdown(prose, columns)).toBe(renderThroughMarked(prose, columns));
        }),
        { numRuns: RUNS },
      );
    },
    CPU_BOUND_MS,
  );

  it(
    'prose with markup in it renders exactly as marked renders it',
    () => {
      fc.assert(
        fc.property(text([...PROSE_WORDS, ...MARKUP_PIECES]), width, (mixed, columns) => {
          expect(renderMarkdown(mixed, columns)).toBe(renderThroughMarked(mixed, columns));
        }),
        { numRuns: RUNS },
      );
    },
    CPU_BOUND_MS,
  );

  it.each([
    ['an autolink', 'Visit www.example.com today'],
    ['an autolink, capitals', 'Visit WWW.example.com today'],
    ['an ordered list after a soft break', 'Steps\n1. one'],
    ['a list after a soft break', 'Items\n- one'],
    ['a hard break', 'first line  \nsecond line'],
    ['a setext heading', 'Title\n-----'],
    ['a second paragraph', 'One.\n\nTwo.'],
    ['indented code after a blank line', 'Text\n\n    code'],
    ['a streamed reply of numbered words', 'r7t0000 r7t0001 r7t0002 '.repeat(40)],
  ])('%s renders as marked renders it', (_, source) => {
    for (const columns of [10, 20, 40, 120])
      expect(renderMarkdown(source, columns)).toBe(renderThroughMarked(source, columns));
  });
});
