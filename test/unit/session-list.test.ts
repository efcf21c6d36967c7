/** The session list for people: one line each, the chat's own session marked, the model's name made inert. */
import { describe, expect, it } from 'vitest';
import { formatSessionList } from '../../src/present/session-list.js';

const now = new Date(2025, 2, 1, 18, 0, 0);
const at = (month: number, day: number): string => new Date(2025, month, day, 9, 30, 0).toISOString();

describe('session list', () => {
  it('one line each: name, when, model, turns, first line; the current one starred', () => {
    const text = formatSessionList(
      [
        { name: 'today', model: 'llama3.2', updatedAt: at(2, 1), turns: 1, title: 'What is 2+2?' },
        { name: 'older-one', model: 'qwen3', updatedAt: at(1, 28), turns: 12, title: 'Summarise README.md' },
      ],
      now,
      'today',
    );
    expect(text.split('\n')).toEqual([
      'Sessions (newest first; mcp-chat --resume <name> or /resume <name> continues one):',
      '* today      09:30:00             llama3.2      1 turn  What is 2+2?',
      '  older-one  2025-02-28 09:30:00  qwen3       12 turns  Summarise README.md',
    ]);
  });

  it('says when there are none', () => {
    expect(formatSessionList([], now)).toBe('No saved sessions yet: a chat is saved after its first answer.');
  });

  it("a title's escape sequences and line breaks are made inert", () => {
    const text = formatSessionList(
      [{ name: 'x', model: 'm\u001b]0;pwned\u0007', updatedAt: at(2, 1), turns: 1, title: 'a\u001b[2Jb\nc' }],
      now,
    );
    expect(text).not.toContain('\u001b');
    expect(text).toContain('ab c');
  });
});
