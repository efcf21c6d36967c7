/** A message that cannot fit is refused with an account of what took the space. */
import { describe, expect, it } from 'vitest';
import { accountFor, checkMessageFits, ContextOverflowError, historyTokens } from '../../src/engine/context-account.js';
import type { ToolOffer } from '../../src/vocabulary/types.js';

const offer: ToolOffer = {
  catalogue: 94,
  budgetTokens: 2048,
  tokens: 2000,
  form: 'short',
  tools: Array.from({ length: 20 }, (_, index) => ({
    name: `s.t${index}`,
    reason: 'ranked' as const,
    rank: index + 1,
  })),
};

describe('context account', () => {
  it('leaves the history what the reply share, the system prompt and the tools do not take', () => {
    const account = accountFor(8192, { systemPrompt: 'x'.repeat(400), toolsInPrompt: false }, offer);
    expect(historyTokens(account)).toBe(6144 - 100 - 2000);
  });

  it('counts tools written into a text-mode system prompt once', () => {
    const account = accountFor(8192, { systemPrompt: 'x'.repeat(8400), toolsInPrompt: true }, offer);
    expect(account.systemTokens).toBe(100);
    expect(historyTokens(account)).toBe(6144 - 100 - 2000);
  });

  it('natively, counts the tools listed in the system prompt once, as tools', () => {
    const listing = { ...offer, listedTokens: 1500 };
    const account = accountFor(8192, { systemPrompt: 'x'.repeat(6400), toolsInPrompt: false }, listing);
    expect(account.systemTokens).toBe(100);
    expect(historyTokens(account)).toBe(6144 - 100 - 2000);
  });

  it('refuses a message that cannot fit, saying what took the space and what to do', () => {
    const earlier = [{ role: 'user' as const, content: 'y'.repeat(4000) }];
    const account = accountFor(8192, { systemPrompt: 'x'.repeat(400), toolsInPrompt: false }, offer);
    expect(() => checkMessageFits(account, 'z'.repeat(17_000), earlier)).toThrow(ContextOverflowError);
    try {
      checkMessageFits(account, 'z'.repeat(17_000), earlier);
    } catch (error) {
      const { message, hint } = error as ContextOverflowError;
      expect(message).toMatch(/^the message is too long for the model's context: about 4252 tokens, at most 4044 fit/);
      expect(message).toContain('the system prompt (100 tokens), the tools (2000, 20 of 94 tools)');
      expect(message).toContain("the reply's share (2048) and earlier messages (1002, left out first)");
      expect(hint).toContain('tools.budget');
    }
    expect(() => checkMessageFits(account, 'z'.repeat(16_000), earlier)).not.toThrow();
  });
});
