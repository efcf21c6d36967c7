/**
 * What a session has cost so far, read off its turns' events: model requests and tokens (from
 * Ollama's final chunks), tool calls by server, time in the model and in tools, and how full the
 * context was at the last request. The same figures serve `/stats` and `ask --json`'s `stats`.
 */
import type { TurnEvent } from '../vocabulary/types.js';

export interface StatsSnapshot {
  /** Turns that reached the model. */
  turns: number;
  /** Model requests, across all turns. */
  requests: number;
  /** Prompt tokens Ollama evaluated (`prompt_eval_count`), summed. */
  inputTokens: number;
  /** Tokens the model generated (`eval_count`), summed. */
  outputTokens: number;
  /** Generated tokens per second of generation (`eval_count / eval_duration`); null before any timing. */
  tokensPerSecond: number | null;
  /** Wall-clock time of the model requests, loading included. */
  modelMs: number;
  /** Of which loading the model (`load_duration`). */
  loadMs: number;
  /** Time the tool calls took, summed (calls that ran together each count). */
  toolMs: number;
  toolCalls: number;
  toolCallsByServer: Record<string, number>;
  /** The last request's prompt and reply tokens against its `num_ctx`; null before any request. */
  context: { used: number; size: number } | null;
}

export class SessionStats {
  private turns = 0;
  private requests = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  /** Output tokens and generation time, only from replies that reported both. */
  private timedTokens = 0;
  private generationMs = 0;
  private modelMs = 0;
  private loadMs = 0;
  private toolMs = 0;
  private readonly byServer = new Map<string, number>();
  private context: StatsSnapshot['context'] = null;

  /** Passes a turn's events through, counting them. */
  async *track(events: AsyncIterable<TurnEvent>): AsyncGenerator<TurnEvent> {
    let counted = false;
    for await (const event of events) {
      if (event.type === 'model-reply' && !counted) {
        counted = true;
        this.turns += 1;
      }
      this.observe(event);
      yield event;
    }
  }

  observe(event: TurnEvent): void {
    if (event.type === 'tool-result') {
      const { server } = event.call;
      this.byServer.set(server, (this.byServer.get(server) ?? 0) + 1);
      this.toolMs += event.result.durationMs;
      return;
    }
    if (event.type !== 'model-reply') return;
    this.requests += 1;
    this.modelMs += event.durationMs;
    const usage = event.usage;
    if (!usage) return;
    const input = usage.inputTokens ?? 0;
    const output = usage.outputTokens ?? 0;
    this.inputTokens += input;
    this.outputTokens += output;
    this.loadMs += usage.loadMs ?? 0;
    if (usage.outputTokens !== undefined && usage.generationMs !== undefined && usage.generationMs > 0) {
      this.timedTokens += usage.outputTokens;
      this.generationMs += usage.generationMs;
    }
    // A reply that reports no prompt count (a cached prompt) says nothing of how full the context is.
    if (usage.inputTokens !== undefined) this.context = { used: input + output, size: usage.contextSize };
  }

  snapshot(): StatsSnapshot {
    const toolCallsByServer = Object.fromEntries([...this.byServer].sort(([a], [b]) => a.localeCompare(b)));
    return {
      turns: this.turns,
      requests: this.requests,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      tokensPerSecond: this.generationMs > 0 ? Math.round((this.timedTokens / this.generationMs) * 10_000) / 10 : null,
      modelMs: Math.round(this.modelMs),
      loadMs: Math.round(this.loadMs),
      toolMs: Math.round(this.toolMs),
      toolCalls: [...this.byServer.values()].reduce((sum, count) => sum + count, 0),
      toolCallsByServer,
      context: this.context,
    };
  }
}
