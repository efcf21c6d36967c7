/**
 * Text for the terminal: markdown (code blocks, lists, quotes, tables, emphasis) through marked
 * and marked-terminal, each block wrapped to the terminal's width under its own indentation
 * (markdown-blocks.ts); and any text from outside made inert.
 */
import { Marked, type MarkedExtension } from 'marked';
import { markedTerminal } from 'marked-terminal';
import { sanitizeForTerminal } from '../shared/terminal-text.js';
import { blockRenderers, INDENT, type TerminalBlocks } from './markdown-blocks.js';
import { HARD_BREAK, wrapWords } from './wrap-styled.js';

/** What `markedTerminal()` returns at run time; its published types still describe version 6. */
interface TerminalExtension extends MarkedExtension {
  renderer: TerminalBlocks;
}

/** No style of its own: marked-terminal's default (a full reset) would end a quote's style at each paragraph. */
const unstyled = (text: string): string => text;

const renderers = new Map<number, Marked>();

/** The narrowest width rendered to: below it, a width is taken as this. */
const MIN_WIDTH = 20;

function rendererFor(width: number): Marked {
  let renderer = renderers.get(width);
  if (!renderer) {
    const terminal = markedTerminal({
      tab: INDENT,
      // Wrapping is done per block, at the width left by its indentation (markdown-blocks.ts).
      reflowText: false,
      paragraph: unstyled,
      table: unstyled,
    }) as unknown as TerminalExtension;
    renderer = new Marked(terminal, { renderer: blockRenderers(terminal.renderer, width) });
    renderers.set(width, renderer);
  }
  return renderer;
}

/**
 * Prose that markdown reads as one plain paragraph: letters, digits, spaces and punctuation that
 * opens no markup, each line starting with a letter (no list, heading, rule, quote or code), no
 * blank line, no space before a line break (a hard break), and no `www.` (an autolink). marked
 * renders it as its words wrapped, which is all this path does: a streaming reply's paragraph of
 * prose is rendered at every frame, and through marked that costs three to six times as much
 * (test/ui/markdown-prose.test.ts checks both give the same on random text, markup included).
 * Nothing of the characters allowed can start an escape sequence, so there is nothing to sanitise.
 */
const PROSE_CHARACTERS = /^[A-Za-z][A-Za-z0-9 ,.;!?'"()\n-]*$/;
const NOT_PROSE = /\n[^A-Za-z]| \n|www\./i;

const isPlainProse = (text: string): boolean => PROSE_CHARACTERS.test(text) && !NOT_PROSE.test(text);

export function renderMarkdown(text: string, width: number): string {
  if (isPlainProse(text)) return wrapWords(text, Math.max(MIN_WIDTH, width)).join('\n');
  return renderThroughMarked(text, width);
}

/** The general path: what `renderMarkdown` gives for any text (exported for the test that compares the two). */
export function renderThroughMarked(text: string, width: number): string {
  // Security: model replies can carry escape sequences (clear screen, set title, hyperlinks);
  // only our own styling may reach the terminal, by the rule `call` and `ask` print through.
  const rendered = rendererFor(Math.max(MIN_WIDTH, width)).parse(sanitizeForTerminal(text), { async: false });
  // A hard break left where no block wrapped it (a table cell) must not reach the terminal as a carriage return.
  return rendered.replace(/\n+$/, '').replaceAll(HARD_BREAK, '\n');
}
