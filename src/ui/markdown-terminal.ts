/**
 * Markdown through marked and marked-terminal, each block wrapped to the terminal's width under
 * its own indentation (markdown-blocks.ts). Loaded on its own (markdown.ts): marked-terminal brings
 * highlight.js with every language it knows, registered as it loads, which is most of what the
 * chat would otherwise load before its first frame.
 */
import { Marked, type MarkedExtension } from 'marked';
import { markedTerminal } from 'marked-terminal';
import { sanitizeForTerminal } from '../shared/terminal-text.js';
import { blockRenderers, INDENT, type TerminalBlocks } from './markdown-blocks.js';
import { HARD_BREAK, MIN_MARKDOWN_WIDTH } from './wrap-styled.js';

/** What `markedTerminal()` returns at run time; its published types still describe version 6. */
interface TerminalExtension extends MarkedExtension {
  renderer: TerminalBlocks;
}

/** No style of its own: marked-terminal's default (a full reset) would end a quote's style at each paragraph. */
const unstyled = (text: string): string => text;

const renderers = new Map<number, Marked>();

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

/** Any markdown, at `width` columns (or the narrowest width rendered to). */
export function renderThroughMarked(text: string, width: number): string {
  // Security: model replies can carry escape sequences (clear screen, set title, hyperlinks);
  // only our own styling may reach the terminal, by the rule `call` and `ask` print through.
  const rendered = rendererFor(Math.max(MIN_MARKDOWN_WIDTH, width)).parse(sanitizeForTerminal(text), { async: false });
  // A hard break left where no block wrapped it (a table cell) must not reach the terminal as a carriage return.
  return rendered.replace(/\n+$/, '').replaceAll(HARD_BREAK, '\n');
}
