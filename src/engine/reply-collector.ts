/**
 * Reads one model reply's chunks into events and a collected reply: content through
 * `ReplyStream` (so call text never reaches the screen), reasoning as `thinking-delta` and,
 * once the reply moves on from it, one `thought`; native calls; the final chunk's metrics.
 * Policy: reasoning is never part of the reply's text, so it is never parsed for calls.
 */
import { ReplyStream } from './reply-stream.js';
import type { LlmChunk, ModelUsage, NativeToolCall, TurnEvent } from '../vocabulary/types.js';

export interface CollectedChunks {
  stream: ReplyStream;
  nativeCalls: NativeToolCall[];
  truncated: boolean;
  usage: ModelUsage;
  /** The reasoning of the reply, from Ollama's `thinking` field or a `<think>` block. */
  thinking: string;
}

/**
 * Times a stretch of reasoning, from its first chunk to whatever follows it. Its steps are methods,
 * not generators made per reply: each generator function made anew gives its generators a hidden
 * class of their own, and the reply loop's optimised code was thrown away at every reply for it.
 */
class ThoughtTimer {
  private text = '';
  /** Every stretch of the reply's reasoning, for the collected reply. */
  all = '';
  private startedMs: number | undefined;

  constructor(
    private readonly step: number,
    private readonly now: () => number,
  ) {}

  /** Reasoning streams on: shown as it comes, timed from its first chunk. */
  *think(text: string): Generator<TurnEvent> {
    this.startedMs ??= this.now();
    this.text += text;
    this.all += text;
    yield { type: 'thinking-delta', text };
  }

  /** The reply moves on: the `thought` that ends the stretch, if one is open. */
  *moveOn(): Generator<TurnEvent> {
    const { startedMs } = this;
    const text = this.text.trim();
    this.startedMs = undefined;
    this.text = '';
    if (startedMs === undefined || text === '') return;
    yield { type: 'thought', text, durationMs: Math.round(this.now() - startedMs), step: this.step };
  }
}

function usageOf(done: Extract<LlmChunk, { type: 'done' }>, contextSize: number): ModelUsage {
  return {
    ...(done.promptEvalCount === undefined ? {} : { inputTokens: done.promptEvalCount }),
    ...(done.evalCount === undefined ? {} : { outputTokens: done.evalCount }),
    ...(done.evalDurationMs === undefined ? {} : { generationMs: done.evalDurationMs }),
    ...(done.loadDurationMs === undefined ? {} : { loadMs: done.loadDurationMs }),
    contextSize,
  };
}

export async function* collectReply(
  chunks: AsyncIterable<LlmChunk>,
  step: number,
  contextSize: number,
  /** Where the reply is received: the caller's, to know what was shown if the turn is cancelled midway. */
  stream: ReplyStream = new ReplyStream(),
  now: () => number = () => performance.now(),
): AsyncGenerator<TurnEvent, CollectedChunks> {
  const thought = new ThoughtTimer(step, now);
  const collected: CollectedChunks = {
    stream,
    nativeCalls: [],
    truncated: false,
    usage: { contextSize },
    thinking: '',
  };
  for await (const chunk of chunks) {
    if (chunk.type === 'content') {
      const shown = stream.push(chunk.text);
      if (shown.thinking) yield* thought.think(shown.thinking);
      if (shown.answer) {
        yield* thought.moveOn();
        yield { type: 'assistant-delta', text: shown.answer };
      }
    } else if (chunk.type === 'thinking') yield* thought.think(chunk.text);
    else if (chunk.type === 'tool_calls') {
      yield* thought.moveOn();
      collected.nativeCalls.push(...chunk.calls);
    } else {
      collected.truncated = chunk.doneReason === 'length';
      collected.usage = usageOf(chunk, contextSize);
    }
  }
  yield* thought.moveOn();
  return { ...collected, thinking: thought.all.trim() };
}
