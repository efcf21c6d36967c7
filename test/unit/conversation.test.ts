import { describe, expect, it } from 'vitest';
import { Conversation, windowStart } from '../../src/engine/conversation.js';
import type { ChatMessage } from '../../src/vocabulary/types.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const result = (content: string): ChatMessage => ({ role: 'user', content, toolResult: true });

describe('history window', () => {
  it('never starts inside a tool exchange', () => {
    const history = [
      user('q1'),
      assistant('a1'),
      user('q2'),
      assistant('call'),
      result('r'),
      assistant('call'),
      result('r'),
      assistant('a2'),
    ];
    expect(windowStart(history, { maxMessages: 7, maxTokens: Infinity })).toBe(2);
    expect(windowStart(history, { maxMessages: 3, maxTokens: Infinity })).toBe(2);
  });

  it('trims whole turns to fit the token budget', () => {
    const big = 'x'.repeat(4_000);
    const history = [user(big), assistant(big), user('q2'), assistant('a2')];
    expect(windowStart(history, { maxMessages: 10, maxTokens: 100 })).toBe(2);
    expect(windowStart(history, { maxMessages: 10, maxTokens: 10_000 })).toBe(0);
  });

  it('prepends the system prompt and drops what no window can reach', () => {
    const conversation = new Conversation(2);
    conversation.add(user('q1'), assistant('a1'), user('q2'), assistant('a2'));
    expect(conversation.window('system', 1_000).map((m) => m.content)).toEqual(['system', 'q2', 'a2']);
    conversation.forgetUnreachable();
    expect(conversation.all().map((m) => m.content)).toEqual(['q2', 'a2']);
  });

  it('rolls back to a mark', () => {
    const conversation = new Conversation(10);
    conversation.add(user('q1'));
    const mark = conversation.mark();
    conversation.add(assistant('partial'), result('r'));
    conversation.rollback(mark);
    expect(conversation.all()).toEqual([user('q1')]);
  });

  it('rolls back only what came after the mark, when earlier turns were summarised meanwhile', () => {
    const conversation = new Conversation();
    const earlier = [user('q1'), assistant('a1'), user('q2'), assistant('a2')];
    conversation.add(...earlier);
    const mark = conversation.mark();
    conversation.add(user('q3'));
    // Room made during the turn: the first two turns become one summary.
    const summary: ChatMessage = { role: 'system', content: 'summary' };
    expect(conversation.replaceHead(earlier, summary)).toBe(true);
    conversation.rollback(mark);
    expect(conversation.all()).toEqual([summary]);
  });
});
