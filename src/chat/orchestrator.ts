/**
 * The MCPChatbot: one user turn as an async generator of typed events, consumed alike
 * by the REPL and `mcp-chat ask`. Policy: at most `maxSteps` model calls per turn;
 * a failed or cancelled turn leaves the history as it was before the turn.
 */
import type { ToolMode } from '../config/types.js';
import { OllamaError } from '../errors.js';
import type { Logger } from '../log.js';
import { Conversation, estimateTokens, historyBudget } from './history.js';
import { interpretReply, type ReplyOutcome } from './reply-interpreter.js';
import { ReplyStream } from './reply-stream.js';
import { buildSystemPrompt } from './system-prompt.js';
import { type ApprovalPolicy, executeCall, resultMessage, toRecord } from './tool-execution.js';
import type { LlmClient, LlmToolDefinition, NativeToolCall, ToolCallRecord, ToolHost, TurnEvent } from './types.js';

export interface ChatbotOptions {
  llm: LlmClient;
  host: ToolHost;
  approval: ApprovalPolicy;
  log: Logger;
  toolMode: ToolMode;
  maxSteps: number;
  maxMessages: number;
  numCtx: number;
}

/** One model reply, fully received. */
export interface CollectedReply {
  text: string;
  nativeCalls: NativeToolCall[];
  truncated: boolean;
  /** What of the reply was already shown while it streamed. */
  stream: ReplyStream;
}

export class MCPChatbot {
  readonly conversation: Conversation;
  /** Native tool calling in use; decided on first use, and dropped if the model refuses tools. */
  private native: boolean | undefined;

  constructor(private readonly options: ChatbotOptions) {
    this.conversation = new Conversation(options.maxMessages);
  }

  async *runTurn(userText: string, signal?: AbortSignal): AsyncGenerator<TurnEvent> {
    const tooLong = this.tooLongForContext(userText);
    if (tooLong) {
      yield tooLong;
      return;
    }
    const mark = this.conversation.mark();
    this.conversation.add({ role: 'user', content: userText });
    const records: ToolCallRecord[] = [];
    try {
      for (let step = 1; step <= this.options.maxSteps; step++) {
        const reply = yield* this.streamReply(step, signal);
        const outcome = interpretReply(reply, this.options.host.listTools());
        if (outcome.type === 'answer') {
          const unshown = reply.stream.remainder(outcome.text);
          if (unshown) yield { type: 'assistant-delta', text: unshown };
          this.conversation.add({ role: 'assistant', content: outcome.text });
          yield { type: 'final', answer: outcome.text, steps: step, toolCalls: records };
          return;
        }
        yield* this.runOutcome(outcome, reply, step, records, signal);
      }
      yield { type: 'step-limit', steps: this.options.maxSteps, toolCalls: records };
    } catch (error) {
      this.conversation.rollback(mark);
      if (signal?.aborted) yield { type: 'cancelled' };
      else yield errorEvent(error);
    } finally {
      this.conversation.compact();
    }
  }

  /** Streams one model reply, yielding deltas; falls back to text mode if the model refuses tools. */
  private async *streamReply(step: number, signal?: AbortSignal): AsyncGenerator<TurnEvent, CollectedReply> {
    const native = await this.useNative();
    const tools = this.options.host.listTools();
    const messages = this.conversation.window(buildSystemPrompt(tools, native ? 'native' : 'json'), this.options.numCtx);
    const began = performance.now();
    const stream = new ReplyStream();
    const nativeCalls: NativeToolCall[] = [];
    let truncated = false;
    try {
      for await (const chunk of this.options.llm.chat({ messages, tools: native ? toolDefinitions(tools) : undefined, signal })) {
        if (chunk.type === 'content') {
          const shown = stream.push(chunk.text);
          if (shown.thinking) yield { type: 'thinking-delta', text: shown.thinking };
          if (shown.answer) yield { type: 'assistant-delta', text: shown.answer };
        } else if (chunk.type === 'thinking') yield { type: 'thinking-delta', text: chunk.text };
        else if (chunk.type === 'tool_calls') nativeCalls.push(...chunk.calls);
        else truncated = chunk.doneReason === 'length';
      }
    } catch (error) {
      if (!(error instanceof OllamaError && error.kind === 'no-tool-support' && native)) throw error;
      this.options.log.info('model refused native tools; switching to text tool calls');
      this.native = false;
      return yield* this.streamReply(step, signal);
    }
    yield { type: 'model-reply', raw: stream.text, step, durationMs: Math.round(performance.now() - began) };
    return { text: stream.text, nativeCalls, truncated, stream };
  }

  private async *runOutcome(
    outcome: Exclude<ReplyOutcome, { type: 'answer' }>,
    reply: CollectedReply,
    step: number,
    records: ToolCallRecord[],
    signal?: AbortSignal,
  ): AsyncGenerator<TurnEvent> {
    this.conversation.add({ role: 'assistant', content: reply.text, toolCalls: outcome.native ? reply.nativeCalls : undefined });
    if (outcome.type === 'malformed') {
      yield { type: 'malformed-call', hint: outcome.hint, step };
    }
    for (const planned of outcome.calls) {
      yield { type: 'tool-call', call: planned.call, step };
      const result = planned.refusal ?? (await executeCall(planned.call, this.options.host, this.options.approval, signal));
      signal?.throwIfAborted();
      records.push(toRecord(planned.call, result));
      yield { type: 'tool-result', call: planned.call, result, step };
      this.conversation.add(resultMessage(planned.call, result, outcome.native));
    }
    if (outcome.type === 'malformed' && outcome.calls.length === 0) {
      this.conversation.add({ role: 'user', toolResult: true, content: outcome.hint });
    }
  }

  /**
   * A message that cannot fit the context even alone is refused before the model sees it:
   * Ollama would silently cut it from the front, system prompt and all.
   */
  private tooLongForContext(userText: string): TurnEvent | undefined {
    const { numCtx, host } = this.options;
    const fits = historyBudget(buildSystemPrompt(host.listTools(), 'json'), numCtx);
    const needs = estimateTokens([{ role: 'user', content: userText }]);
    if (needs <= fits) return undefined;
    return {
      type: 'error',
      message: `the message is too long for the model's context: about ${needs} tokens, at most ${fits} fit (num_ctx ${numCtx})`,
      hint: 'Shorten it, or raise ollama.num_ctx in mcp_config.json if the model supports a longer context.',
    };
  }

  /** Forgets what was learned about the model (after switching models). */
  resetModelState(): void {
    this.native = undefined;
  }

  private async useNative(): Promise<boolean> {
    if (this.native !== undefined) return this.native;
    const mode = this.options.toolMode;
    this.native = mode === 'native' || (mode === 'auto' && (await this.options.llm.capabilities()).tools);
    return this.native;
  }
}

function toolDefinitions(tools: ReturnType<ToolHost['listTools']>): LlmToolDefinition[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: `${tool.server}__${tool.name}`, description: tool.description, parameters: tool.inputSchema },
  }));
}

function errorEvent(error: unknown): TurnEvent {
  if (error instanceof OllamaError) return { type: 'error', message: error.message, hint: error.hint };
  return { type: 'error', message: error instanceof Error ? error.message : String(error) };
}
