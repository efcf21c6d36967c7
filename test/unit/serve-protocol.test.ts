/**
 * What `serve` reads from a client (src/serve/protocol.ts), how many a second (src/serve/rate-limit.ts),
 * and what it tells a client a server asks (src/serve/question-view.ts).
 */
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, readClientMessage } from '../../src/serve/protocol.js';
import { questionMessage } from '../../src/serve/question-view.js';
import { RateLimit } from '../../src/serve/rate-limit.js';

describe('serve client messages', () => {
  const read = (value: unknown): ReturnType<typeof readClientMessage> =>
    readClientMessage(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)));

  it('reads the three client messages', () => {
    expect(read({ type: 'message', payload: { text: 'hi' } })).toEqual({
      ok: true,
      message: { type: 'message', payload: { text: 'hi' } },
    });
    expect(read({ type: 'answer', payload: { id: 'question_1', decision: 'always' } }).ok).toBe(true);
    expect(read({ type: 'cancel' }).ok).toBe(true);
  });

  it('refuses what is too large, not JSON, or not one of them, saying which', () => {
    expect(read({ type: 'message', payload: { text: 'x'.repeat(MAX_MESSAGE_BYTES) } })).toMatchObject({
      ok: false,
      kind: 'too-large',
    });
    for (const bad of [
      '{',
      '[]',
      { type: 'message', payload: { text: '  ' } },
      { type: 'answer', payload: { id: 'q', decision: 'maybe' } },
      { type: 'run' },
    ])
      expect(read(bad)).toMatchObject({ ok: false, kind: 'malformed' });
  });

  it('lets a burst of twice the rate through, then one message per tick of the rate', () => {
    let now = 0;
    const limit = new RateLimit(10, () => now);
    expect(Array.from({ length: 25 }, () => limit.take()).filter(Boolean)).toHaveLength(20);
    now += 100;
    expect([limit.take(), limit.take()]).toEqual([true, false]);
  });
});

describe('serve questions', () => {
  it('a sampling question says what the server asks, its limits and the model that would answer', () => {
    const request = {
      server: 'lab',
      messages: [{ role: 'user' as const, text: 'Summarise the notes', images: [] }],
      systemPrompt: 'Be brief.',
      maxTokens: 64,
      modelHints: [],
    };
    expect(questionMessage({ id: 'question_1', kind: 'sampling', request, model: 'llama3.2' })).toEqual({
      type: 'question',
      payload: {
        id: 'question_1',
        kind: 'sampling',
        server: 'lab',
        message:
          'may lab use llama3.2 for a completion (at most 64 tokens)? system: Be brief. · user: Summarise the notes',
      },
    });
  });
});
