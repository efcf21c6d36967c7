/**
 * What a turn cost: Ollama's final chunk read into a `done` chunk, a reply's chunks into events
 * (reasoning folded into one `thought`), the session's figures and how they read.
 */
import { describe, expect, it } from 'vitest';
import { collectReply } from '../../src/engine/reply-collector.js';
import { ReplyStream } from '../../src/engine/reply-stream.js';
import { SessionStats } from '../../src/engine/session-stats.js';
import type { LlmChunk, ToolCall, TurnEvent } from '../../src/vocabulary/types.js';
import { toLlmChunks } from '../../src/ollama/wire.js';
import { contextGauge, formatStats, thoughtLine } from '../../src/present/usage.js';

async function* chunks(...list: LlmChunk[]): AsyncGenerator<LlmChunk> {
  yield* list;
}

/** A clock that moves only when told. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let time = 1000;
  return { now: () => time, advance: (ms) => (time += ms) };
}

async function collect(source: AsyncIterable<LlmChunk>, now?: () => number) {
  const events: TurnEvent[] = [];
  const generator = collectReply(source, 3, 8192, new ReplyStream(), now);
  for (;;) {
    const next = await generator.next();
    if (next.done) return { events, collected: next.value };
    events.push(next.value);
  }
}

describe("Ollama's final chunk", () => {
  it('carries the counts and durations, in ms', () => {
    const [done] = toLlmChunks({
      done: true,
      done_reason: 'stop',
      total_duration: 4_883_583_458,
      load_duration: 1_334_875,
      prompt_eval_count: 26,
      eval_count: 282,
      eval_duration: 4_535_599_000,
    });
    expect(done).toEqual({
      type: 'done',
      doneReason: 'stop',
      totalDurationMs: 4884,
      loadDurationMs: 1.334875,
      promptEvalCount: 26,
      evalCount: 282,
      evalDurationMs: 4535.599,
    });
  });

  it('leaves out what Ollama left out (a cached prompt, a load-only reply)', () => {
    expect(toLlmChunks({ done: true, done_reason: 'load' })).toEqual([{ type: 'done', doneReason: 'load' }]);
  });
});

describe('a reply read into events', () => {
  it('folds the reasoning into one thought when the answer starts, timed from its first chunk', async () => {
    const clock = manualClock();
    const source = (async function* (): AsyncGenerator<LlmChunk> {
      yield { type: 'thinking', text: 'Let me ' };
      clock.advance(1200);
      yield { type: 'thinking', text: 'see.' };
      clock.advance(2000);
      yield { type: 'content', text: 'It is 4.' };
      yield { type: 'done', doneReason: 'stop', promptEvalCount: 50, evalCount: 9, evalDurationMs: 180 };
    })();
    const { events, collected } = await collect(source, clock.now);
    expect(events.map((event) => event.type)).toEqual([
      'thinking-delta',
      'thinking-delta',
      'thought',
      'assistant-delta',
    ]);
    expect(events[2]).toEqual({ type: 'thought', text: 'Let me see.', durationMs: 3200, step: 3 });
    expect(collected.stream.text).toBe('It is 4.');
    expect(collected.usage).toEqual({ inputTokens: 50, outputTokens: 9, generationMs: 180, contextSize: 8192 });
  });

  it('folds before native calls, and at the end of a reply that only thought', async () => {
    const call = { name: 'calculator__evaluate', arguments: { expression: '2+2' } };
    const withCall = await collect(
      chunks({ type: 'thinking', text: 'Use the tool.' }, { type: 'tool_calls', calls: [call] }, done()),
    );
    expect(withCall.events.map((event) => event.type)).toEqual(['thinking-delta', 'thought']);
    expect(withCall.collected.nativeCalls).toEqual([call]);
    const onlyThought = await collect(chunks({ type: 'thinking', text: 'Hmm.' }, done()));
    expect(onlyThought.events.map((event) => event.type)).toEqual(['thinking-delta', 'thought']);
  });

  it('keeps inline reasoning out of the text a call is read from and the history keeps', async () => {
    const { events, collected } = await collect(
      chunks(
        { type: 'content', text: '<think>{"action":"use_tool"}</think>' },
        { type: 'content', text: 'Four.' },
        done(),
      ),
    );
    expect(events.filter((event) => event.type === 'thought')).toHaveLength(1);
    expect(collected.stream.visibleText).toBe('Four.');
  });

  it('says nothing of reasoning that was only whitespace', async () => {
    const { events } = await collect(
      chunks({ type: 'thinking', text: '\n\n' }, { type: 'content', text: 'Hi.' }, done()),
    );
    expect(events.map((event) => event.type)).toEqual(['thinking-delta', 'assistant-delta']);
  });
});

function done(): LlmChunk {
  return { type: 'done', doneReason: 'stop' };
}

const calc: ToolCall = { server: 'calculator', tool: 'evaluate', arguments: {} };
const file: ToolCall = { server: 'file', tool: 'read_file', arguments: {} };

function reply(durationMs: number, usage?: Extract<TurnEvent, { type: 'model-reply' }>['usage']): TurnEvent {
  return { type: 'model-reply', raw: '', step: 1, durationMs, ...(usage ? { usage } : {}) };
}

function result(call: ToolCall, durationMs: number): TurnEvent {
  return { type: 'tool-result', id: 'call_1', call, result: { isError: false, forModel: '', durationMs }, step: 1 };
}

async function* turn(...events: TurnEvent[]): AsyncGenerator<TurnEvent> {
  yield* events;
}

async function drain(events: AsyncIterable<TurnEvent>): Promise<TurnEvent[]> {
  const seen: TurnEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("the session's figures", () => {
  it('sums the counts and times over turns; tokens per second over generation time only', async () => {
    const stats = new SessionStats();
    await drain(
      stats.track(
        turn(
          reply(900, { inputTokens: 100, outputTokens: 10, generationMs: 200, loadMs: 400, contextSize: 4096 }),
          result(calc, 30),
          result(file, 12),
          reply(300, { inputTokens: 150, outputTokens: 30, generationMs: 600, contextSize: 4096 }),
        ),
      ),
    );
    await drain(stats.track(turn(reply(100), result(calc, 5))));
    // A turn that never reached the model (a prompt's missing argument) is not one.
    await drain(stats.track(turn({ type: 'error', kind: 'usage', message: 'needs city' })));
    expect(stats.snapshot()).toEqual({
      turns: 2,
      requests: 3,
      inputTokens: 250,
      outputTokens: 40,
      tokensPerSecond: 50,
      modelMs: 1300,
      loadMs: 400,
      toolMs: 47,
      toolCalls: 3,
      toolCallsByServer: { calculator: 2, file: 1 },
      // The last reply that counted its prompt.
      context: { used: 180, size: 4096 },
    });
  });

  it('has no speed and no context before any counted request', () => {
    const empty = new SessionStats().snapshot();
    expect(empty).toMatchObject({ requests: 0, tokensPerSecond: null, context: null });
    expect(formatStats(empty)).toBe('No model requests yet in this session.');
  });

  it('reads as a few lines for /stats, and a gauge for the status bar', () => {
    const stats = new SessionStats();
    stats.observe(
      reply(2500, { inputTokens: 2300, outputTokens: 10, generationMs: 400, loadMs: 300, contextSize: 8192 }),
    );
    stats.observe(result(calc, 1200));
    expect(formatStats(stats.snapshot())).toBe(
      [
        'Session: 0 turns, 1 model request',
        'Tokens: 2,300 in, 10 out · 25 tokens/s',
        'Time: 2.5 s in the model (0.3 s loading), 1.2 s in tools',
        'Tool calls: 1 (calculator 1)',
        'Context at the last request: 2,310/8,192 ctx (28%)',
      ].join('\n'),
    );
    expect(contextGauge({ used: 8000, size: 8192 })).toBe('8,000/8,192 ctx (98%)');
    expect(thoughtLine(3240)).toBe('thought for 3.2 s');
  });
});
