/**
 * The context the model really has, when the config names none: no `num_ctx` goes to Ollama, and
 * every budget follows what Ollama says: Ollama's conservative default (capped by the model's own
 * maximum from `/api/show`) until a reply has loaded the model, then the context `/api/ps` reports.
 * An Ollama without `/api/ps`, or without `context_length` in it, leaves the assumption in place,
 * quietly. A configured `num_ctx` is sent and budgeted by as before, and Ollama is not asked.
 * The session as the program builds it, the real Ollama client, the fake Ollama.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChatSession } from '../../src/session/chat-session.js';
import { createOllamaClient } from '../../src/ollama/client.js';
import { silentLogger } from '../../src/shared/log.js';
import type { ToolSpec, TurnEvent } from '../../src/vocabulary/types.js';
import { type FakeModel, type FakeOllama, type FakeOllamaOptions, startFakeOllama } from '../fakes/fake-ollama.js';
import { FakeToolHost } from '../fakes/fake-tool-host.js';
import { testRuntime } from '../helpers/test-session.js';

class NoToolsHost extends FakeToolHost {
  override listTools(): ToolSpec[] {
    return [];
  }
}

let ollama: FakeOllama;
afterEach(() => ollama.close());

const MODEL: FakeModel = { name: 'llama3.2', capabilities: ['completion'] };

async function sessionOver(fake: FakeOllamaOptions, numCtx?: number): Promise<ChatSession> {
  ollama = await startFakeOllama({ models: [MODEL], ...fake });
  const runtime = testRuntime({ baseUrl: ollama.url, model: 'llama3.2' }, {});
  if (numCtx === undefined) delete runtime.config.ollama.numCtx;
  else runtime.config.ollama.numCtx = numCtx;
  return new ChatSession(runtime, new NoToolsHost(), createOllamaClient(runtime.config.ollama, silentLogger));
}

async function turn(session: ChatSession, text: string): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of session.runTurn(text)) events.push(event);
  return events;
}

/** The context each model request of the turn was budgeted by, as the status line shows it. */
const contextSizes = (events: TurnEvent[]): number[] =>
  events.flatMap((event) => (event.type === 'model-reply' && event.usage ? [event.usage.contextSize] : []));

/** About `tokens` tokens of a user's message, to mcp-chat's estimate and the fake's alike. */
const words = (tokens: number): string => 'word '.repeat(Math.round((tokens * 4) / 5)).trim();

const isSummaryRequest = (messages: Array<{ content: string }>): boolean =>
  messages[0]?.content.includes('Write a concise summary of the conversation so far') === true;

describe('without ollama.num_ctx', () => {
  it('sends no num_ctx, and budgets by the context /api/ps reports once a reply has loaded the model', async () => {
    const session = await sessionOver({ defaultContext: 32_768 });
    ollama.script('One.', 'Two.');
    const first = await turn(session, 'hello');
    const second = await turn(session, 'again');
    expect(ollama.chatRequests.map((request) => request.options?.num_ctx)).toEqual([undefined, undefined]);
    // Before the model was loaded: Ollama's own default. After: what Ollama allocated.
    expect(contextSizes(first)).toEqual([4096]);
    expect(contextSizes(second)).toEqual([32_768]);
    expect(session.context.source).toBe('loaded');
    expect(ollama.requests.some((request) => request.path === '/api/ps')).toBe(true);
  });

  it('compacts where 8192 would not, when the loaded context is small', async () => {
    const session = await sessionOver({ defaultContext: 2048 });
    ollama.script('Noted one.', 'The user sent two long runs of words.', 'Noted two.');
    await turn(session, `one ${words(1_100)}`);
    const events = await turn(session, `two ${words(1_100)}`);
    expect(events).toContainEqual({
      type: 'notice',
      text: expect.stringMatching(
        /^Compacted 1 earlier turn into a summary \(about [\d,]+ → [\d,]+ tokens\) so that the conversation fits the model's context/,
      ),
    });
    expect(ollama.chatRequests.filter((request) => isSummaryRequest(request.messages))).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'final', answer: 'Noted two.' });

    await ollama.close();
    const roomy = await sessionOver({ defaultContext: 2048 }, 8192);
    ollama.script('Noted one.', 'Noted two.');
    await turn(roomy, `one ${words(1_100)}`);
    const kept = await turn(roomy, `two ${words(1_100)}`);
    expect(kept.some((event) => event.type === 'notice')).toBe(false);
    expect(ollama.chatRequests.map((request) => request.options?.num_ctx)).toEqual([8192, 8192]);
    expect(JSON.stringify(ollama.chatRequests[1]?.messages)).toContain('one word');
  });

  it("caps the assumption by the model's own maximum before the model is loaded", async () => {
    const session = await sessionOver({ models: [{ ...MODEL, contextLength: 1024 }] });
    ollama.script('Short.');
    expect(contextSizes(await turn(session, 'hello'))).toEqual([1024]);
    expect(session.context.tokens).toBe(1024);
  });

  it.each(['absent', 'no-context-length'] as const)(
    'with /api/ps %s (an older Ollama): keeps the assumption, and nothing of it reaches the screen',
    async (ps) => {
      const session = await sessionOver({ ps, defaultContext: 32_768 });
      ollama.script('One.', 'Two.');
      const events = [...(await turn(session, 'hello')), ...(await turn(session, 'again'))];
      expect(events.filter((event) => ['notice', 'error'].includes(event.type))).toEqual([]);
      expect(contextSizes(events)).toEqual([4096, 4096]);
      expect(session.context.source).toBe('assumed');
    },
  );
});

describe('with ollama.num_ctx', () => {
  it('sends it with every request, budgets by it, and does not ask Ollama', async () => {
    const session = await sessionOver({ defaultContext: 2048 }, 8192);
    ollama.script('One.');
    expect(contextSizes(await turn(session, 'hello'))).toEqual([8192]);
    expect(ollama.chatRequests[0]?.options?.num_ctx).toBe(8192);
    expect(ollama.requests.some((request) => request.path === '/api/ps')).toBe(false);
    expect(session.context.source).toBe('configured');
  });
});
