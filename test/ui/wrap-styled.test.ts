/** Styled prose and code cut to a width (src/ui/wrap-styled.ts), styles carried across each break. */
import { describe, expect, it } from 'vitest';
import { cutLine, HARD_BREAK, wrapWords } from '../../src/ui/wrap-styled.js';

const ESC = '\u001b';
const BOLD = `${ESC}[1m`;
const BOLD_OFF = `${ESC}[22m`;
const RED = `${ESC}[31m`;

describe('wrapping styled prose', () => {
  it('moves whole words to the next line, carries a style across the break, and cuts a word longer than the line', () => {
    expect(wrapWords(`one two ${BOLD}three four${BOLD_OFF} five`, 9)).toEqual([
      'one two',
      `${BOLD}three${ESC}[0m`,
      `${BOLD}four${BOLD_OFF} five`,
    ]);
    expect(wrapWords('abcdefghij kl', 4)).toEqual(['abcd', 'efgh', 'ij', 'kl']);
    expect(wrapWords(`first${HARD_BREAK}second line`, 20)).toEqual(['first', 'second line']);
    expect(cutLine(`  ${RED}code  lines${ESC}[39m`, 6)).toEqual([
      `  ${RED}code${ESC}[0m`,
      `${RED}  line${ESC}[0m`,
      `${RED}s${ESC}[39m`,
    ]);
  });
});
