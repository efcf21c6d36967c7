/**
 * The context every budget is a share of: `num_ctx` when configured (Ollama is then never asked);
 * else Ollama's default capped by the model's maximum until the model is loaded, then the loaded
 * context (capped likewise), kept while the model is unloaded, and started afresh for another model.
 */
import { describe, expect, it } from 'vitest';
import { ASSUMED_CONTEXT, ContextWindow } from '../../src/engine/context-window.js';
import type { ModelContext } from '../../src/vocabulary/model-context.js';

/** What Ollama says, per model, as a test sets it. */
function ollamaSays(initial: Record<string, ModelContext>) {
  const says = { ...initial };
  const asked: string[] = [];
  const probe = (model: string): Promise<ModelContext> => {
    asked.push(model);
    return Promise.resolve(says[model] ?? {});
  };
  return { says, asked, probe };
}

describe('the context window', () => {
  it('is num_ctx when configured, and never asks', async () => {
    const ollama = ollamaSays({ m: { loaded: 2048 } });
    const window = new ContextWindow(8192, ollama.probe);
    await window.refresh('m');
    expect([window.tokens, window.source, window.unsettled('m')]).toEqual([8192, 'configured', false]);
    expect(ollama.asked).toEqual([]);
  });

  it("assumes Ollama's default, capped by the model's maximum, until the model is loaded", async () => {
    const ollama = ollamaSays({ small: { maximum: 2048 }, large: { maximum: 131_072 } });
    const window = new ContextWindow(undefined, ollama.probe);
    expect(window.tokens).toBe(ASSUMED_CONTEXT);
    await window.refresh('small');
    expect([window.tokens, window.source]).toEqual([2048, 'assumed']);
    await window.refresh('large');
    expect([window.tokens, window.source]).toEqual([4096, 'assumed']);
  });

  it('takes the loaded context, at most the maximum, and keeps it while the model is unloaded', async () => {
    const ollama = ollamaSays({ m: { loaded: 32_768, maximum: 131_072 } });
    const window = new ContextWindow(undefined, ollama.probe);
    await window.refresh('m');
    expect([window.tokens, window.source, window.unsettled('m')]).toEqual([32_768, 'loaded', false]);
    ollama.says.m = { maximum: 131_072 };
    await window.refresh('m');
    expect(window.tokens).toBe(32_768);
    ollama.says.m = { loaded: 262_144, maximum: 131_072 };
    await window.refresh('m');
    expect(window.tokens).toBe(131_072);
  });

  it('starts afresh for another model', async () => {
    const ollama = ollamaSays({ a: { loaded: 32_768 }, b: { maximum: 8192 } });
    const window = new ContextWindow(undefined, ollama.probe);
    await window.refresh('a');
    expect(window.unsettled('b')).toBe(true);
    await window.refresh('b');
    expect([window.tokens, window.source]).toEqual([4096, 'assumed']);
  });

  it('without a way to ask (a client that cannot), stays on the assumption', async () => {
    const window = new ContextWindow(undefined);
    await window.refresh('m');
    expect([window.tokens, window.source]).toEqual([ASSUMED_CONTEXT, 'assumed']);
  });
});
