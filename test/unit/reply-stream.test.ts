import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReplyStream, proseEnd } from '../../src/engine/reply-stream.js';

function feed(chunks: string[]): { shown: string; thinking: string; stream: ReplyStream } {
  const stream = new ReplyStream();
  let shown = '';
  let thinking = '';
  for (const chunk of chunks) {
    const delta = stream.push(chunk);
    shown += delta.answer;
    thinking += delta.thinking;
  }
  return { shown, thinking, stream };
}

describe('what a streaming reply may show', () => {
  it('shows prose as it arrives', () => {
    expect(feed(['The ans', 'wer is ', '42.']).shown).toBe('The answer is 42.');
  });

  it('holds back from the first character that could start a call', () => {
    const { shown, stream } = feed(['Sure! Listing', ' files now.\n{"action":', '"use_tool"}']);
    expect(shown).toBe('Sure! Listing files now.\n');
    expect(stream.text).toBe('Sure! Listing files now.\n{"action":"use_tool"}');
  });

  it('holds back a possible code fence until it is complete, and lists at a line start', () => {
    expect(proseEnd('Here: `')).toBe(6);
    expect(proseEnd('Text\n[evaluate(expression="1")]')).toBe(4);
    expect(proseEnd('see [the docs](x)')).toBe(17);
  });

  it("holds back Functionary's >>> call at a line start, however it is split, but not a quote", () => {
    expect(feed(['Let me work that out.\n>', '>>eval', 'uate\n{"expression": "2+2"}']).shown).toBe(
      'Let me work that out.\n',
    );
    expect(feed(['>>>evaluate\n', '{"expression": "2+2"}']).shown).toBe('');
    expect(feed(['> a quote, ', 'shown as it comes']).shown).toBe('> a quote, shown as it comes');
  });

  it('routes inline <think> text to thinking, never to the answer', () => {
    const { shown, thinking } = feed(['<think>maybe {"a":1}', '</think>', 'Four.']);
    expect(shown).toBe('Four.');
    expect(thinking).toContain('maybe');
  });

  it("routes Mistral's [THINK] text to thinking, never to the answer", () => {
    // `[THINK]` is one token: it arrives whole, alone or with the text around it.
    const { shown, thinking } = feed(['Hi. ', '[THINK]maybe', ' {"a":1}[/THINK]', 'Four.']);
    expect(shown).toBe('Hi. Four.');
    expect(thinking).toContain('maybe');
  });

  it('completes the answer after the detector has ruled', () => {
    const { shown, stream } = feed(['Result: ', '{"x": 1} is JSON.']);
    expect(shown + stream.remainder('Result: {"x": 1} is JSON.')).toBe('Result: {"x": 1} is JSON.');
  });
});

/** The rule the stream must keep, computed the slow way: rescan the whole reply on every delta. */
function shownByFullRescan(chunks: string[]): string {
  let raw = '';
  let shown = '';
  for (const chunk of chunks) {
    raw += chunk;
    const visible = raw.trimStart();
    const safe = visible.slice(0, proseEnd(visible));
    if (safe.length > shown.length && safe.startsWith(shown)) shown = safe;
  }
  return shown;
}

describe('the incremental stream agrees with a full rescan', () => {
  // Pieces rich in what matters: triggers, fences split across deltas, line starts, the call word.
  const piece = fc.constantFrom(
    'a',
    'word ',
    ' ',
    '\t',
    '\n',
    '`',
    '``',
    '{',
    '}',
    '[',
    ']',
    'func',
    'tools',
    'functools',
    '"x": 1',
    '.',
  );
  const chunked = fc.array(
    fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')),
    { maxLength: 40 },
  );

  it('shows the same prose for any text without tags, however it is split', () => {
    fc.assert(
      fc.property(chunked, (chunks) => {
        expect(feed(chunks).shown).toBe(shownByFullRescan(chunks));
      }),
      { numRuns: 5_000 },
    );
  });
});
