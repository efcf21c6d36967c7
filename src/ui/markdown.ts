/**
 * Markdown for the terminal (code blocks, lists, emphasis) through marked and
 * marked-terminal, wrapped to the terminal's width.
 */
import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';

const renderers = new Map<number, Marked>();

function rendererFor(width: number): Marked {
  let renderer = renderers.get(width);
  if (!renderer) {
    renderer = new Marked();
    // marked-terminal's types lag behind marked's extension type; the runtime contract is the documented one.
    renderer.use(markedTerminal({ width, reflowText: true, tab: 2 }) as Parameters<Marked['use']>[0]);
    renderers.set(width, renderer);
  }
  return renderer;
}

export function renderMarkdown(text: string, width: number): string {
  const rendered = rendererFor(Math.max(20, width)).parse(text, { async: false });
  return rendered.replace(/\n+$/, '');
}
