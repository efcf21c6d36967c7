/**
 * A streaming reply on the REPL screen: its finished blocks are written to the scrollback as they
 * end, so a long reply is all on screen while it streams, and the whole reads as one render.
 */
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { LlmCapabilities, LlmChunk, LlmRequest } from '../../src/vocabulary/types.js';
import { renderMarkdown } from '../../src/ui/markdown.js';
import { AlwaysUpLlm } from '../fakes/scripted-llm.js';
import { KEY, startApp, type RenderedApp } from './render-app.js';

afterEach(() => cleanup());

/**
 * A model that streams its reply a part at a time, each when the test lets it: so each part reaches
 * the screen in a frame of its own. After the last part the reply ends, or waits for a cancel.
 */
class PacedLlm extends AlwaysUpLlm {
  model = 'paced-model';
  private released = 0;
  private wake: () => void = () => undefined;

  constructor(
    private readonly parts: string[],
    private readonly hang = false,
  ) {
    super();
  }

  async capabilities(): Promise<LlmCapabilities> {
    return { tools: false, thinking: false };
  }

  /** Streams the next part (once the request has come, if it has not yet). */
  next(): void {
    this.released += 1;
    this.wake();
  }

  async *chat(request: LlmRequest): AsyncGenerator<LlmChunk> {
    for (const [index, part] of this.parts.entries()) {
      while (this.released <= index) await new Promise<void>((resolve) => (this.wake = resolve));
      yield { type: 'content', text: part };
    }
    if (this.hang) {
      await new Promise((resolve) => request.signal?.addEventListener('abort', resolve, { once: true }));
      throw Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
    }
    yield { type: 'done', doneReason: 'stop' };
  }
}

/** Streams each part once the screen shows what the one before it said (`seen`). */
async function streamParts(app: RenderedApp, llm: PacedLlm, seen: RegExp[]): Promise<void> {
  for (const pattern of seen) {
    llm.next();
    await app.waitForScreen(pattern);
  }
}

/** ink-testing-library's terminal width. */
const WIDTH = 100;

const count = (text: string, part: string): number => text.split(part).length - 1;
/** Lines as a terminal shows them: trailing spaces are not seen. */
const visible = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');

describe('a reply streamed block by block', () => {
  it('a long reply is in the history a paragraph at a time: all of it on screen as it streams, none of it twice', async () => {
    const paragraphs = Array.from({ length: 30 }, (_, index) => `Paragraph ${index + 1} is here.`);
    const llm = new PacedLlm(
      paragraphs.map((paragraph, index) => (index === 0 ? paragraph : `\n\n${paragraph}`)),
      true,
    );
    const app = await startApp({ llm });
    app.send('Tell me a lot');
    await streamParts(
      app,
      llm,
      paragraphs.map((paragraph) => new RegExp(paragraph)),
    );
    // Live, the whole reply would show its last dozen rows; the finished paragraphs are above it now.
    const screen = app.screen();
    expect(screen).not.toMatch(/more lines above/);
    const positions = paragraphs.map((paragraph) => screen.indexOf(paragraph));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // A blank line between paragraphs, as in a render of the whole: the live one too, below the last drawn.
    expect(screen).toContain('Paragraph 1 is here.\n\nParagraph 2 is here.\n\nParagraph 3 is here.');
    expect(screen).toContain('Paragraph 29 is here.\n\nParagraph 30 is here.');
    app.press(KEY.esc);
    await app.waitForScreen(/Paragraph 29 is here\.\n\nParagraph 30 is here\.\nCancelled\./);
    for (const paragraph of paragraphs) expect(count(app.screen(), paragraph)).toBe(1);
  });

  it('headings, lists, a table and highlighted code read as the whole answer rendered at once', async () => {
    const blocks: Array<[string, RegExp]> = [
      ['# A heading', /A heading/],
      [
        'A paragraph with **bold** and `code`, long enough to wrap at the edge of a hundred-column terminal window.',
        /wrap/,
      ],
      ['1. first\n\n2. second, after a blank line', /second/],
      ['| name | value |\n|------|-------|\n| a    | 1     |', /value/],
      ['- a point\n  - a nested point', /nested/],
      ['```js\nconst a = 1;\n\nconst b = 2;\n```\n\nThe end.', /The end\.[\s\S]*ready/],
    ];
    const reply = blocks.map(([block]) => block).join('\n\n');
    const llm = new PacedLlm(blocks.map(([block], index) => (index === 0 ? block : `\n\n${block}`)));
    const app = await startApp({ llm });
    app.send('Show me markdown');
    await streamParts(
      app,
      llm,
      blocks.map(([, seen]) => seen),
    );
    const whole = visible(stripVTControlCharacters(renderMarkdown(reply, WIDTH)));
    expect(visible(app.screen())).toContain(whole);
    expect(count(app.screen(), 'The end.')).toBe(1);
  });
});
