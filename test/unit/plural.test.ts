/** One count, one noun in the right number: the helper and the lines that say counts through it. */
import { describe, expect, it } from 'vitest';
import { counted } from '../../src/shared/plural.js';
import { formatStats } from '../../src/present/usage.js';
import { toolCount } from '../../src/present/tool-line.js';
import { formatSessionList } from '../../src/present/session-list.js';

describe('counted', () => {
  it('says one in the singular and every other count in the plural, grouped by thousands', () => {
    expect([0, 1, 2, 1234].map((count) => counted(count, 'step'))).toEqual([
      '0 steps',
      '1 step',
      '2 steps',
      '1,234 steps',
    ]);
    expect(counted(1, 'entry', 'entries')).toBe('1 entry');
    expect(counted(3, 'entry', 'entries')).toBe('3 entries');
  });

  it('is what /stats, the server summaries and the session list say of one', () => {
    const stats = formatStats({
      turns: 1,
      requests: 1,
      inputTokens: 10,
      outputTokens: 5,
      tokensPerSecond: null,
      modelMs: 100,
      loadMs: 0,
      toolMs: 0,
      toolCalls: 0,
      toolCallsByServer: {},
      context: null,
    });
    expect(stats.split('\n')[0]).toBe('Session: 1 turn, 1 model request');
    expect(toolCount(1)).toBe('1 tool');
    const row = {
      name: 'notes',
      model: 'qwen3',
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      turns: 1,
      title: 'Notes',
    };
    expect(formatSessionList([row], new Date('2026-01-02T00:00:00Z'))).toMatch(/\b1 turn\b/);
  });
});
