/**
 * The live block rendered from a moving start: at every point of a stream, the lines it shows are
 * exactly the last lines of rendering the whole block, and the count of lines above adds up; and in
 * a long paragraph the start really moves, so a frame's work stays the same size.
 */
import { describe, expect, it, vi } from 'vitest';

// Styles on, as in a terminal: a style spanning a moved start must show up as a difference.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

const { loadMarkdownRenderer, renderMarkdown } = await import('../../src/ui/markdown.js');
// As the chat has it once drawn: markdown other than plain prose goes through marked.
await loadMarkdownRenderer();
const { StreamingMarkdown } = await import('../../src/ui/streaming-markdown.js');

const WIDTH = 60;

/**
 * Streams `reply` in chunks of `chunk` characters and checks the view against a whole render at each;
 * `renderedLines` is the most lines rendered by one call (a frame's markdown work).
 */
function streamAndCompare(
  reply: string,
  chunk: number,
): { hiddenLines: number; shownLines: number; renderedLines: number } {
  let renderedLines = 0;
  const markdown = new StreamingMarkdown((text, width) => {
    const rendered = renderMarkdown(text, width);
    renderedLines = Math.max(renderedLines, rendered.split('\n').length);
    return rendered;
  });
  let view = { text: '', hiddenLines: 0 };
  for (let end = chunk; end < reply.length + chunk; end += chunk) {
    const text = reply.slice(0, end);
    view = markdown.render(text, WIDTH);
    const whole = renderMarkdown(text, WIDTH).split('\n');
    const shown = view.text.split('\n');
    expect({ at: end, hidden: view.hiddenLines }).toEqual({ at: end, hidden: whole.length - shown.length });
    expect(shown).toEqual(whole.slice(view.hiddenLines));
  }
  return { hiddenLines: view.hiddenLines, shownLines: view.text.split('\n').length, renderedLines };
}

const words = (count: number): string =>
  Array.from({ length: count }, (_, index) => `word${index}${index % 7 === 0 ? ',' : ''}`).join(' ');

describe('StreamingMarkdown', () => {
  it('a long plain paragraph: shows the whole render’s last lines, from a start that moves on', () => {
    const { hiddenLines, shownLines, renderedLines } = streamAndCompare(words(1500), 23);
    expect(hiddenLines).toBeGreaterThan(100);
    expect(shownLines).toBeLessThanOrEqual(28);
    // The lines shown above the start were rendered once, when the start moved past them.
    expect(renderedLines).toBeLessThanOrEqual(9);
    expect(shownLines).toBeGreaterThan(renderedLines);
  });

  it('markup inside a long paragraph keeps the start where the words still match, and the lines exact', () => {
    const paragraph =
      `${words(200)} **${words(300)}** ${words(200)} [a link](https://example.com) ${words(100)} ` +
      `\`code ${words(60)}\` ~~${words(60)}~~ _${words(80)}_ ${words(300)}`;
    for (const chunk of [7, 31]) streamAndCompare(paragraph, chunk);
  });

  it('a new reply, or a new width, starts again from the beginning', () => {
    const markdown = new StreamingMarkdown();
    markdown.render(words(1000), WIDTH);
    const fresh = markdown.render('A new reply.', WIDTH);
    expect(fresh).toEqual({ text: renderMarkdown('A new reply.', WIDTH), hiddenLines: 0 });
    const long = words(1000);
    markdown.render(long, WIDTH);
    const wider = markdown.render(long, WIDTH + 20);
    const whole = renderMarkdown(long, WIDTH + 20).split('\n');
    expect(wider.text.split('\n')).toEqual(whole.slice(wider.hiddenLines));
  });
});
