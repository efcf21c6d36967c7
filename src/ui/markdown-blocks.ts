/**
 * The block renderers mcp-chat puts over marked-terminal's. marked-terminal wraps a paragraph to
 * the full width and indents it afterwards, so text inside a quote or a list item ran past the
 * edge and the terminal wrapped it back to column 0; it never wraps list items or code at all;
 * and it renders a tight list item's text token as its raw source (`**bold**` shown as typed),
 * because it reads `token.text` where marked 13+ puts the parsed inline tokens in `token.tokens`.
 *
 * Here each block is wrapped to the room its indentation leaves: `layout.width` narrows while a
 * quote's or a list item's content is rendered, and marked-terminal still does the styling (its
 * inline renderers, syntax highlighting, tables, its escaping and emoji rules) inside.
 */
import type { RendererObject, Token, Tokens } from 'marked';
import { stripVTControlCharacters } from 'node:util';
import { renderTable } from './markdown-table.js';
import { cutLine, HARD_BREAK, wrapWords } from './wrap-styled.js';

/** marked-terminal's indent for quotes and code (its `tab` option). */
export const INDENT = 2;

/** Below this, text inside deep nesting would be cut a few letters a line: it may overflow instead. */
const MIN_WIDTH = 16;

/** Spaces for a tab in code: the terminal's own tab stops would not match the width counted here. */
const TAB = '    ';

/** Spaces a line starts with, escapes (syntax highlighting) not counted. */
const leadingSpaces = (line: string): number => /^ */.exec(stripVTControlCharacters(line))?.[0].length ?? 0;

/** marked-terminal's renderers that these wrap. */
export type TerminalBlocks = Required<Pick<RendererObject, 'paragraph' | 'heading' | 'blockquote' | 'code'>>;

type Renderer = ThisParameterType<TerminalBlocks['paragraph']>;

/** A renderer's output without marked-terminal's trailing blank line. */
function body(rendered: string | false): string {
  return rendered === false ? '' : rendered.replace(/\n+$/, '');
}

/** A block as marked-terminal ends one, so blocks keep a blank line between them. */
const block = (lines: string[]): string => `${lines.join('\n')}\n\n`;

/** A tight list item holds its text as a block `text` token: render it as the paragraph it is. */
function asBlock(token: Token, prefix: string): Token {
  if (token.type !== 'text' && token.type !== 'paragraph') return token;
  const inline: Token[] = token.tokens ?? [{ type: 'text', raw: token.raw, text: token.text }];
  const tokens: Token[] = prefix === '' ? inline : [{ type: 'text', raw: prefix, text: prefix }, ...inline];
  return { type: 'paragraph', raw: token.raw, text: token.text, tokens };
}

function itemLines(renderer: Renderer, item: Tokens.ListItem): string[] {
  const blocks = item.tokens.filter((token) => token.type !== 'space');
  const checkbox = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
  const rendered = blocks.map((token, index) =>
    body(renderer.parser.parse([asBlock(token, index === 0 ? checkbox : '')])),
  );
  return rendered.join(item.loose ? '\n\n' : '\n').split('\n');
}

/** Highlighted code cut to `width`; marked-terminal puts INDENT spaces before every line, and each piece keeps them. */
function codeLines(code: string, width: number): string[] {
  const margin = ' '.repeat(INDENT);
  const room = Math.max(MIN_WIDTH, width - INDENT);
  return code.split('\n').flatMap((line) => {
    // A long line goes on under its own indentation, up to half the room, so the nesting still reads.
    const hang = Math.max(0, Math.min(leadingSpaces(line) - INDENT, Math.floor(room / 2)));
    const pieces = cutLine(line.slice(INDENT), room, room - hang);
    return pieces.map((piece, index) => margin + (index === 0 ? '' : ' '.repeat(hang)) + piece);
  });
}

export function blockRenderers(base: TerminalBlocks, width: number): RendererObject {
  const layout = { width };
  /** Renders content `by` columns further in: what it wraps to is that much narrower. */
  function indented<T>(by: number, render: () => T): T {
    const outer = layout.width;
    layout.width = Math.max(MIN_WIDTH, outer - by);
    try {
      return render();
    } finally {
      layout.width = outer;
    }
  }

  return {
    paragraph(token) {
      return block(wrapWords(body(base.paragraph.call(this, token)), layout.width));
    },
    heading(token) {
      return block(wrapWords(body(base.heading.call(this, token)), layout.width));
    },
    br() {
      return HARD_BREAK;
    },
    hr() {
      return block(['-'.repeat(layout.width)]);
    },
    blockquote(token) {
      return indented(INDENT, () => base.blockquote.call(this, token));
    },
    code(token) {
      const code = body(base.code.call(this, { ...token, text: token.text.replaceAll('\t', TAB) }));
      return block(codeLines(code, layout.width));
    },
    table(token) {
      // A cell's text as a paragraph's: marked-terminal's inline styles, entities and emoji.
      const cell = (content: Tokens.TableCell): string =>
        body(
          base.paragraph.call(this, {
            type: 'paragraph',
            raw: content.text,
            text: content.text,
            tokens: content.tokens,
          }),
        );
      return block(renderTable(token, layout.width, cell));
    },
    list(token) {
      const start = typeof token.start === 'number' ? token.start : 1;
      const markers = token.items.map((_, index) => (token.ordered ? `${start + index}.` : '*'));
      // Item text hangs under its first word, past the widest marker and one space.
      const hang = Math.max(...markers.map((marker) => marker.length)) + 1;
      const items = token.items.map((item, index) => {
        const lines = indented(hang, () => itemLines(this, item));
        const marker = `${(markers[index] ?? '').padStart(hang - 1)} `;
        return lines.map((line, row) => (line === '' ? '' : (row === 0 ? marker : ' '.repeat(hang)) + line)).join('\n');
      });
      return `${items.join(token.loose ? '\n\n' : '\n')}\n\n`;
    },
  };
}
