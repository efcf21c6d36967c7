/**
 * Styled prose wrapped to a width (src/ui/wrap-styled.ts). A streaming paragraph is wrapped again
 * at every frame, a few words longer, and the wrapper goes on from where it left off: what it
 * gives must be exactly what a wrap of the whole text gives, whatever came in between.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutLine, HARD_BREAK, WordWrapper } from '../../src/ui/wrap-styled.js';

const ESC = '\u001b';
const BOLD = `${ESC}[1m`;
const BOLD_OFF = `${ESC}[22m`;
const RED = `${ESC}[31m`;

/** Pieces prose is made of: words, spaces, wide characters, styles, a hyperlink, stray escapes, hard breaks. */
const piece = fc.oneof(
  fc.constantFrom(' ', '  ', '\t', '\n', 'word', 'a', 'bb', 'averyveryverylongwordpastthewidth', '漢字', '🙂'),
  fc.constantFrom(BOLD, BOLD_OFF, RED, `${ESC}[39m`, `${ESC}[0m`, `${ESC}]8;;https://example.com/a b\u0007`),
  fc.constantFrom(ESC, `${ESC}[3`, HARD_BREAK),
  fc.string({ maxLength: 6 }),
);

const fresh = (text: string, width: number): string[] => new WordWrapper().wrap(text, width);

describe('wrapping styled prose', () => {
  it('moves whole words to the next line, carries a style across the break, and cuts a word longer than the line', () => {
    expect(fresh(`one two ${BOLD}three four${BOLD_OFF} five`, 9)).toEqual([
      'one two',
      `${BOLD}three${ESC}[0m`,
      `${BOLD}four${BOLD_OFF} five`,
    ]);
    expect(fresh('abcdefghij kl', 4)).toEqual(['abcd', 'efgh', 'ij', 'kl']);
    expect(fresh(`first${HARD_BREAK}second line`, 20)).toEqual(['first', 'second line']);
    expect(cutLine(`  ${RED}code  lines${ESC}[39m`, 6)).toEqual([
      `  ${RED}code${ESC}[0m`,
      `${RED}  line${ESC}[0m`,
      `${RED}s${ESC}[39m`,
    ]);
  });

  it('a hyperlink start without its end is not gone on from: a BEL further on makes it a link', () => {
    const link = `${ESC}]8;;https://example.com/a b\u0007`;
    const wrapper = new WordWrapper();
    // The link cut before its BEL, then a space: wrapped so far, its ESC is a lone one.
    const cut = `${link.slice(0, 15)} ${ESC}${ESC}!!${RED}${BOLD}`;
    expect(wrapper.wrap(cut, 3)).toEqual(fresh(cut, 3));
    // The same start, and a link whose BEL now ends the first one too.
    const grown = `${cut.slice(0, 16)} ${link}`;
    expect(wrapper.wrap(grown, 3)).toEqual(fresh(grown, 3));
  });

  it('a paragraph wrapped again as it grows gives what a whole wrap gives', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (pieces, width) => {
        const growing = new WordWrapper();
        let text = '';
        for (const next of pieces) {
          text += next;
          expect(growing.wrap(text, width)).toEqual(fresh(text, width));
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('other paragraphs, other widths and texts that change before their end in between change nothing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(piece, { maxLength: 12 }), fc.integer({ min: 1, max: 25 }), fc.boolean()), {
          maxLength: 20,
        }),
        (steps) => {
          const wrapper = new WordWrapper();
          let text = '';
          for (const [pieces, width, restart] of steps) {
            // A new paragraph, or the same one grown (or cut back and grown: an edit before its end).
            text = restart ? pieces.join('') : text.slice(0, Math.floor(text.length / 2)) + pieces.join('');
            expect(wrapper.wrap(text, width)).toEqual(fresh(text, width));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
