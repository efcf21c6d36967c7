import { describe, expect, it } from 'vitest';
import { capForModel, resultText, toResultViews } from '../../src/mcp/content.js';
import { sanitizeForDisplay, sanitizeForTerminal } from '../../src/shared/terminal-text.js';

describe('tool result views', () => {
  it('joins text blocks and describes images, resources and links', () => {
    const text = resultText({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'embedded text' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'file:///c.txt', name: 'c', description: 'a link' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'first',
      '[image png, 3 B]',
      'embedded text',
      '[resource file:///b.bin]',
      '[resource link file:///c.txt: a link]',
    ]);
  });

  it('falls back to structured content when there is no text', () => {
    expect(resultText({ content: [], structuredContent: { temperature: 21 } })).toBe('{"temperature":21}');
  });

  it('caps what the model sees and says how much was cut', () => {
    const capped = capForModel('x'.repeat(10_000), 8_000);
    expect(capped.startsWith('x'.repeat(8_000))).toBe(true);
    expect(capped).toContain('[… truncated: showing 8000 of 10000 characters]');
    expect(capForModel('short', 8_000)).toBe('short');
  });

  it('terminal injection: escape sequences and control characters never reach the screen', () => {
    const hostile = '\u001b[2J\u001b]0;pwned\u0007\u001b[31mred\u001b[0m\rover\bwrite\u0000nul\u009bcsi\nnext';
    const shown = sanitizeForDisplay(hostile);
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    // U+009B is the one-byte CSI: "\u009bc" is a whole control sequence, so the c goes with it.
    expect(shown).toBe('red over write nulsi next');
  });

  it('terminal injection: whole results keep their lines and tabs, and lose every escape, control and carriage return', () => {
    const hostile =
      'a\tb\n\u001b]52;c;ZXZpbA==\u0007\u001b]0;title\u001b\\harmless\rEVIL\n\u009b31mred\u0090dcs\u009c\b\u0000end';
    expect(sanitizeForTerminal(hostile)).toBe('a\tb\nharmlessEVIL\nreddcsend');
    // Stateless: an escape cut in two by streaming leaves only printable text behind.
    const streamed = ['\u001b]0;ti', 'tle\u0007 ok'].map(sanitizeForTerminal).join('');
    expect(streamed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(streamed.endsWith('tle ok')).toBe(true);
  });

  it('bidi spoofing: bidi controls show as escapes, so "notes\\u202Eexe.txt" cannot read as "notestxt.exe"', () => {
    const spoof = 'notes\u202Eexe.txt';
    expect(sanitizeForTerminal(spoof)).toBe('notes\\u202Eexe.txt');
    expect(sanitizeForDisplay(spoof)).toBe('notes\\u202Eexe.txt');
    // Every bidi control: embeddings, overrides, isolates, and the LRM, RLM and ALM marks.
    const bidi = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
    const marks = ['\u200E', '\u200F', '\u061C'];
    for (const char of [...bidi, ...marks]) {
      const hex = char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      expect(sanitizeForTerminal(`a${char}b`)).toBe(`a\\u${hex}b`);
      expect(sanitizeForDisplay(`a${char}b`)).toBe(`a\\u${hex}b`);
    }
  });

  it('zero-width hiding: zero-width characters and the BOM show as escapes, in whole results and one-line views', () => {
    const hidden = 'rm\u200B -rf\u200C /\u200D\u2060home\uFEFF';
    const shown = 'rm\\u200B -rf\\u200C /\\u200D\\u2060home\\uFEFF';
    expect(sanitizeForTerminal(hidden)).toBe(shown);
    expect(sanitizeForDisplay(hidden)).toBe(shown);
    // Streamed chunk by chunk, the same escapes: each character is handled on its own.
    expect([...hidden].map((char) => sanitizeForTerminal(char)).join('')).toBe(shown);
    // Line breaks, tabs and ordinary non-ASCII text are not touched.
    expect(sanitizeForTerminal('é\tß\nשלום 日本')).toBe('é\tß\nשלום 日本');
  });

  it('bidi spoofing: a one-line view is never cut inside an escape', () => {
    for (let pad = 0; pad < 8; pad++) {
      const shown = sanitizeForDisplay(`${'x'.repeat(150 + pad)}\u202E${'y'.repeat(20)}`, 160);
      expect(shown.length).toBeLessThanOrEqual(160);
      expect(shown).toMatch(/(x|\\u202E|y)…$/);
      // Half an escape (`\u2`, `\u202`) would name another character, or none.
      expect(shown).not.toMatch(/\\u[0-9A-F]{0,3}…$/);
      expect(shown).not.toMatch(/[\u202A-\u202E]/);
    }
  });

  it('keeps the display to one short line', () => {
    const shown = sanitizeForDisplay(`${'word '.repeat(100)}`);
    expect(shown.length).toBeLessThanOrEqual(160);
    expect(shown.endsWith('…')).toBe(true);
  });

  it('marks error results', () => {
    expect(toResultViews({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({
      isError: true,
      forModel: 'bad',
    });
  });
});
