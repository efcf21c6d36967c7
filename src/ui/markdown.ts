/**
 * Text for the terminal: markdown (code blocks, lists, quotes, tables, emphasis) rendered for the
 * screen, and any text from outside made inert. Plain prose is wrapped here; anything else goes
 * through marked and marked-terminal (markdown-terminal.ts), which the chat loads once its first
 * frame is drawn. What draws a reply waits for that load first (`loadMarkdownRenderer`): a turn
 * before it shows its first event, a resumed conversation before it is drawn.
 */
import { sanitizeForTerminal } from '../shared/terminal-text.js';
import { cutLine, MIN_MARKDOWN_WIDTH, wrapWords } from './wrap-styled.js';

type TerminalRenderer = typeof import('./markdown-terminal.js');

let terminalRenderer: TerminalRenderer | undefined;
let loading: Promise<void> | undefined;

/** Loads the renderer for markdown other than plain prose; once, however often it is called. */
export function loadMarkdownRenderer(): Promise<void> {
  return (loading ??= import('./markdown-terminal.js').then((loaded) => {
    terminalRenderer = loaded;
  }));
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

/** Resolves once each of `replies` can be drawn: at once when all are plain prose, after the load otherwise. */
export function readyToDraw(replies: Iterable<string>): Promise<void> {
  for (const reply of replies) if (!isPlainProse(reply)) return loadMarkdownRenderer();
  return Promise.resolve();
}

export function renderMarkdown(text: string, width: number): string {
  const columns = Math.max(MIN_MARKDOWN_WIDTH, width);
  if (isPlainProse(text)) return wrapWords(text, columns).join('\n');
  if (terminalRenderer) return terminalRenderer.renderThroughMarked(text, columns);
  // Only if something draws a reply without waiting for the renderer: the text as it came, made inert.
  return sanitizeForTerminal(text)
    .split('\n')
    .flatMap((line) => cutLine(line, columns))
    .join('\n');
}
