/**
 * Where a streaming reply is cut into finished blocks (src/ui/reply-blocks.ts): never inside a
 * fence, a list or a table, and the blocks rendered a blank line apart read exactly as the whole.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { CPU_BOUND_MS } from '../helpers/ceilings.js';

// Styles on, as in a terminal: a style that a cut would end early must show up as a difference.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

const { loadMarkdownRenderer, renderMarkdown } = await import('../../src/ui/markdown.js');
// As the chat has it once drawn: markdown other than plain prose goes through marked.
await loadMarkdownRenderer();
const { lastSafeSplit, unshownAnswer } = await import('../../src/ui/reply-blocks.js');

/** The text before the last cut, and the text after it. */
const cut = (text: string): [string, string] => [text.slice(0, lastSafeSplit(text)), text.slice(lastSafeSplit(text))];

/** Streams `text` `chunk` characters at a time, cutting off each finished block: the blocks, then the live rest. */
function streamBlocks(text: string, chunk: number, check: (blocks: string[], sofar: string) => void = () => {}) {
  const blocks: string[] = [];
  let live = '';
  for (let at = 0; at < text.length; at += chunk) {
    live += text.slice(at, at + chunk);
    const split = lastSafeSplit(live);
    if (split > 0) {
      blocks.push(live.slice(0, split).trimEnd());
      live = live.slice(split);
    }
    check([...blocks, live], text.slice(0, at + chunk));
  }
  return { blocks, live };
}

/** The blocks as the screen draws them: each rendered alone, a blank line apart. */
const drawn = (blocks: string[], width: number): string =>
  blocks
    .filter((block) => block.trim())
    .map((block) => renderMarkdown(block, width))
    .join('\n\n');

describe('the last safe split point', () => {
  it('is after the last blank line between paragraphs, as soon as the next one starts', () => {
    expect(cut('One.\n\nTwo.\n\nT')).toEqual(['One.\n\nTwo.\n\n', 'T']);
    expect(cut('One.\n\nTwo.\n\n')).toEqual(['One.\n\n', 'Two.\n\n']);
    // `1` may still become `1. item`, and `-` `- item`, which would go on with a list above.
    expect(lastSafeSplit('1. a\n\n1')).toBe(0);
    expect(lastSafeSplit('- a\n\n-')).toBe(0);
    expect(cut('- a\n\n-x')).toEqual(['- a\n\n', '-x']);
  });

  it('is never inside a fence, even at its blank lines; before and after it', () => {
    const fence = '```js\nconst a = 1;\n\nconst b = 2;\n\nexport {};\n';
    expect(lastSafeSplit(fence)).toBe(0);
    expect(cut(`Before.\n\n${fence}`)).toEqual(['Before.\n\n', fence]);
    expect(cut(`${fence}\`\`\`\n\nAfter.\n`)).toEqual([`${fence}\`\`\`\n\n`, 'After.\n']);
    // A fence inside a list's item, and a line at column 0 in it that does not end the item's fence.
    expect(lastSafeSplit('- item\n\n  ```\n  a\n\n  b\n')).toBe(0);
  });

  it('keeps a list whole across its blank lines and indented paragraphs, and cuts after it', () => {
    const list = '1. one\n\n2. two\n\n   more of two\n\n10. ten\n';
    expect(lastSafeSplit(list)).toBe(0);
    expect(cut(`${list}\nAfter.\n`)).toEqual([`${list}\n`, 'After.\n']);
  });

  it('keeps a table whole, and cuts after it', () => {
    const table = '| a | b |\n|---|---|\n| 1 | 2 |\n';
    expect(lastSafeSplit(table)).toBe(0);
    expect(cut(`Intro.\n\n${table}\nAfter.\n`)).toEqual([`Intro.\n\n${table}\n`, 'After.\n']);
  });

  it('finds nothing in a reply with no blank line at all, or past a carriage return', () => {
    expect(lastSafeSplit('A line.\nAnother line.\n- an item\n# and a heading\n')).toBe(0);
    expect(lastSafeSplit('One.\r\n\r\nTwo.\r\n')).toBe(0);
  });

  it(
    'streamed in any chunks, the blocks drawn a blank line apart read as a render of the whole, at every chunk',
    () => {
      const lines = fc.constantFrom(
        ...['', '', '', 'Some prose words', 'more *emphasis', 'closing* it', '# Heading', '- item', '* star'],
        ...['1. one', '2) two', '10. ten', '  indented', '   three', '    code', '```', '```js', '~~~', '  ```'],
        ...['| a | b |', '|---|---|', '> quote', '---', '===', 'Text `code', 'tick` end', '- [ ] task', '<div>'],
      );
      fc.assert(
        fc.property(fc.array(lines, { maxLength: 14 }), fc.integer({ min: 1, max: 9 }), (picked, chunk) => {
          const reply = `${picked.join('\n')}\n`.trimStart();
          streamBlocks(reply, chunk, (blocks, sofar) => expect(drawn(blocks, 60)).toBe(renderMarkdown(sofar, 60)));
        }),
        { numRuns: 150 },
      );
    },
    CPU_BOUND_MS,
  );

  it('a long reply of many blocks streams a block at a time: the live rest stays short', () => {
    const words = (count: number): string => Array.from({ length: count }, (_, index) => `word${index}`).join(' ');
    const section = (n: number): string =>
      [
        `## Part ${n}`,
        `Some **bold words that run on** and \`code\` in part ${n}, ${words(40)}`,
        '- first item\n- second item that is long enough to wrap past the edge of a sixty column window',
        '```js\nconst a = 1;\n\nconst b = 2; // a blank line inside the fence\n```',
        `> a quoted line, ${words(15)}`,
        '| a | b |\n|---|---|\n| 1 | 2 |',
      ].join('\n\n');
    const reply = Array.from({ length: 12 }, (_, n) => section(n)).join('\n\n');
    let longest = 0;
    const { blocks, live } = streamBlocks(reply, 17, (parts) => {
      longest = Math.max(longest, parts.at(-1)?.length ?? 0);
    });
    expect(blocks.length).toBeGreaterThan(24);
    // The live rest is a block and the line after it: never more than a tenth of the reply.
    expect(longest).toBeLessThan(reply.length / 10);
    expect(drawn([...blocks, live], 60)).toBe(renderMarkdown(reply, 60));
  });
});

describe('the final answer after blocks committed', () => {
  it('is what was streamed, normally: only the live rest is left to show', () => {
    expect(unshownAnswer('One.\n\nTwo.', 'One.\n\n', 'Two.')).toBe('Two.');
    expect(unshownAnswer('One.', '', 'One.')).toBe('One.');
  });

  it('trimmed, or shorter than what was shown (a call stripped from its end): nothing is left to show', () => {
    expect(unshownAnswer('One.\n\nTwo.', 'One.\n\nTwo.\n\n', '')).toBe('');
    expect(unshownAnswer('One.', 'One.\n\nTwo.\n\n', '{"tool": "x"}')).toBe('');
  });

  it('an answer streamed on a line of its own after other prose: what of it is committed is not shown again', () => {
    const committed = 'Draft.\n\n\nFinal one.\n\n';
    expect(unshownAnswer('Final one.\n\nFinal two.', committed, 'Final two.')).toBe('Final two.');
    expect(unshownAnswer('Final one.', 'Draft.\n\n', '\nFinal one.')).toBe('Final one.');
  });

  it('an answer unlike anything streamed is shown whole', () => {
    expect(unshownAnswer('Something else.', 'Draft.\n\n', 'More draft')).toBe('Something else.');
  });
});
