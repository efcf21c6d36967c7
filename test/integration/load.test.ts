/**
 * Load on the engine behind `ask` and the REPL: 200 consecutive turns in one process with
 * a tool call each, against a real stdio server (memory, listeners and processes stay
 * bounded), and 50 concurrent calls to one real server (each gets its own right answer).
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { LlmCapabilities, LlmChunk, LlmRequest } from '../../src/vocabulary/types.js';
import { ChatSession } from '../../src/session/chat-session.js';
import { silentLogger } from '../../src/shared/log.js';
import { McpHost } from '../../src/mcp/host.js';
import { collectGarbage } from '../helpers/gc.js';
import { builtServer, descendants, isProcessAlive, scriptedServer } from '../helpers/server-configs.js';
import { collect, ofType, textCall } from '../helpers/turns.js';
import { testRuntime } from '../helpers/test-session.js';
import { AlwaysUpLlm } from '../fakes/scripted-llm.js';

const TURNS = 200;
const MAX_MESSAGES = 10;

/**
 * A model that keeps nothing: asked by the user for "n+1" it calls `add`, shown the result it
 * answers with it. Recording nothing, it adds nothing to the memory being measured.
 */
class AddingLlm extends AlwaysUpLlm {
  model = 'adding-model';
  largestRequest = 0;

  async capabilities(): Promise<LlmCapabilities> {
    return { tools: false, thinking: false };
  }

  async *chat(request: LlmRequest): AsyncGenerator<LlmChunk> {
    this.largestRequest = Math.max(this.largestRequest, request.messages.length);
    const last = request.messages.at(-1);
    const asked = last?.role === 'user' && last.toolResult !== true ? /^What is (\d+)\+1\?$/.exec(last.content) : null;
    const result = /returned:\n(\d+)\n/.exec(last?.content ?? '');
    const text = asked
      ? textCall('healthy', 'add', { a: Number(asked[1]), b: 1 })
      : `It is ${result?.[1] ?? 'unknown'}.`;
    yield { type: 'content', text };
    yield { type: 'done', doneReason: 'stop' };
  }
}

/** Child processes of this test process (the `ps` that lists them has exited by then). */
function liveChildren(): number[] {
  return descendants(process.pid).filter(isProcessAlive);
}

function listenerTotal(): number {
  return process.eventNames().reduce((sum, name) => sum + process.listenerCount(name), 0);
}

let host: McpHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe(`${TURNS} consecutive turns in one process`, () => {
  it('answer every turn, keep the history window bounded, and leak no memory, listeners or processes', async () => {
    host = new McpHost([scriptedServer('healthy')], { log: silentLogger });
    await host.start();
    const llm = new AddingLlm();
    const { chatbot } = new ChatSession(testRuntime({}, { maxMessages: MAX_MESSAGES }), host, llm, {
      approvalRule: () => false,
    });
    let warm = { heap: 0, listeners: 0, children: [] as number[] };
    for (let n = 1; n <= TURNS; n++) {
      // A signal per turn, as the REPL gives one: nothing may stay attached to it once the turn is over.
      const turn = new AbortController();
      const events = await collect(chatbot.runTurn(`What is ${n}+1?`, turn.signal));
      expect(ofType(events, 'final')[0]?.answer).toBe(`It is ${n + 1}.`);
      expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
      // Twice the window is remembered, so turns that leave it are still there to be summarised.
      expect(chatbot.conversation.length).toBeLessThanOrEqual(2 * MAX_MESSAGES);
      if (n === 20) {
        collectGarbage();
        warm = { heap: process.memoryUsage().heapUsed, listeners: listenerTotal(), children: liveChildren() };
      }
    }
    collectGarbage();
    expect(process.memoryUsage().heapUsed - warm.heap).toBeLessThan(4 * 2 ** 20);
    expect(listenerTotal()).toBe(warm.listeners);
    expect(liveChildren()).toEqual(warm.children);
    // The system prompt plus the window: the model never sees more than the configured history.
    expect(llm.largestRequest).toBeLessThanOrEqual(1 + MAX_MESSAGES);
  });
});

describe('50 concurrent tool calls to one server', () => {
  it('are each answered with their own right result', async () => {
    host = new McpHost([builtServer('calculator')], { log: silentLogger });
    await host.start();
    const calls = Array.from({ length: 50 }, (_, i) =>
      host?.callTool({ server: 'calculator', tool: 'evaluate', arguments: { expression: `${i} * ${i} + ${i}` } }),
    );
    const results = await Promise.all(calls);
    expect(results.map((result) => result?.isError)).toEqual(Array.from({ length: 50 }, () => false));
    expect(results.map((result) => result?.forModel)).toEqual(Array.from({ length: 50 }, (_, i) => String(i * i + i)));
  });
});
