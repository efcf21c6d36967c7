/**
 * The MCPChatbot: one user turn as an async generator of typed events, consumed alike
 * by the REPL and `mcp-chat ask`. Policy: at most `maxSteps` model calls per turn (the calls a
 * reply asks for are run by `CallRunner`); a failed or cancelled turn leaves the history as it
 * was before the turn.
 */
import { McpChatError, OllamaError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import { type ApprovalRule, Approvals } from './approval.js';
import { CallRunner, TurnFailures } from './call-runner.js';
import { accountFor, checkMessageFits, historyTokens } from './context-account.js';
import { Conversation } from './conversation.js';
import { interpretReply, type ReplyPlan } from './reply-interpreter.js';
import { ReplyStream } from './reply-stream.js';
import { resultMessage, toRecord } from './tool-execution.js';
import { type ToolProtocol, toolProtocol } from './tool-protocol.js';
import { isFindTools } from './tool-selection/find-tools.js';
import type { ToolSelection } from './tool-selection/tool-selection.js';
import type { RankingRequest } from './tool-selection/tool-ranking.js';
import type {
  ChatMessage,
  LlmClient,
  NativeToolCall,
  ToolCallRecord,
  ToolHost,
  ToolMode,
  ToolResult,
  ToolSpec,
  TurnEvent,
} from './types.js';

/** How much of a message ranks the tools: its start says what it is about, and ranking stays cheap. */
const RANKED_CHARS = 4_000;
/** Earlier user messages that count in the ranking, besides the new one. */
const RANKED_EARLIER_MESSAGES = 2;

export interface ChatbotOptions {
  llm: LlmClient;
  host: ToolHost;
  /** Which of the host's tools each request offers. */
  toolSelection: ToolSelection;
  /** Which calls wait for the user: each becomes an `approval-request` event. */
  approvalRule: ApprovalRule;
  /** Read-only calls of one reply that may run at once. */
  maxParallel: number;
  /** Every configured server, running or not: a call that names one never runs elsewhere. */
  configuredServers: string[];
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
  /** The tools its calls may name: the whole catalogue, and `find_tools` when it was offered. */
  callable: ToolSpec[];
}

export class MCPChatbot {
  readonly conversation: Conversation;
  private readonly calls: CallRunner;
  /** How tools reach the model; decided on first use, and text JSON if the model refuses tools. */
  private protocol: ToolProtocol | undefined;

  constructor(private readonly options: ChatbotOptions) {
    this.conversation = new Conversation(options.maxMessages);
    const { host, toolSelection } = options;
    this.calls = new CallRunner({
      // `find_tools` is answered here, from the catalogue; every other call goes to its server.
      host: {
        listTools: () => host.listTools(),
        callTool: (call, signal, onProgress) =>
          isFindTools(call) ? toolSelection.find(call, signal) : host.callTool(call, signal, onProgress),
      },
      approvals: new Approvals((call) => !isFindTools(call) && options.approvalRule(call)),
      maxParallel: options.maxParallel,
    });
  }

  /** `input`: what the user typed, or the messages a server's prompt wrote for the turn. */
  async *runTurn(input: string | ChatMessage[], signal?: AbortSignal): AsyncGenerator<TurnEvent> {
    const mark = this.conversation.mark();
    this.conversation.add(...(typeof input === 'string' ? [{ role: 'user' as const, content: input }] : input));
    const records: ToolCallRecord[] = [];
    const failures = new TurnFailures();
    try {
      for (let step = 1; step <= this.options.maxSteps; step++) {
        const reply = yield* this.streamReply(step, signal);
        const plan = interpretReply(reply, reply.callable, this.options.configuredServers);
        if (plan.type === 'answer') {
          const unshown = reply.stream.remainder(plan.text);
          if (unshown) yield { type: 'assistant-delta', text: unshown };
          this.conversation.add({ role: 'assistant', content: plan.text });
          yield { type: 'final', answer: plan.text, steps: step, toolCalls: records };
          return;
        }
        yield* this.runCalls(plan, reply, step, records, failures, signal);
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

  /** What ranks the tools for this request: the new message first, then the recent ones. */
  private rankingRequest(userMessages: string[]): RankingRequest {
    const messages = userMessages.slice(-1 - RANKED_EARLIER_MESSAGES).map((text) => text.slice(0, RANKED_CHARS));
    return { message: messages.at(-1) ?? '', earlier: messages.slice(0, -1) };
  }

  /** Streams one model reply, yielding deltas; falls back to text mode if the model refuses tools. */
  private async *streamReply(step: number, signal?: AbortSignal): AsyncGenerator<TurnEvent, CollectedReply> {
    const protocol = await this.currentProtocol();
    const catalogue = this.options.host.listTools();
    const userMessages = this.conversation.userMessages();
    const { tools, offer, findTools } = await this.options.toolSelection.select(
      catalogue,
      protocol.name,
      this.rankingRequest(userMessages),
      signal,
    );
    yield { type: 'tools-offered', step, offer };
    const systemPrompt = protocol.systemPrompt(tools);
    const definitions = protocol.offer(tools);
    const account = accountFor(this.options.numCtx, { systemPrompt, toolsInPrompt: definitions === undefined }, offer);
    checkMessageFits(account, userMessages.at(-1) ?? '', this.conversation.all().slice(0, -1));
    const messages = this.conversation.window(systemPrompt, historyTokens(account));
    const began = performance.now();
    const stream = new ReplyStream();
    const nativeCalls: NativeToolCall[] = [];
    let truncated = false;
    try {
      for await (const chunk of this.options.llm.chat({ messages, tools: definitions, signal })) {
        if (chunk.type === 'content') {
          const shown = stream.push(chunk.text);
          if (shown.thinking) yield { type: 'thinking-delta', text: shown.thinking };
          if (shown.answer) yield { type: 'assistant-delta', text: shown.answer };
        } else if (chunk.type === 'thinking') yield { type: 'thinking-delta', text: chunk.text };
        else if (chunk.type === 'tool_calls') nativeCalls.push(...chunk.calls);
        else truncated = chunk.doneReason === 'length';
      }
    } catch (error) {
      if (!(error instanceof OllamaError && error.kind === 'no-tool-support' && protocol.name === 'native'))
        throw error;
      this.options.log.info('model refused native tools; switching to text tool calls');
      this.protocol = toolProtocol('json');
      return yield* this.streamReply(step, signal);
    }
    yield { type: 'model-reply', raw: stream.text, step, durationMs: Math.round(performance.now() - began) };
    // A call is resolved against the whole catalogue: a tool that exists but was not offered still runs.
    const callable = findTools ? [...catalogue, findTools] : catalogue;
    return { text: stream.text, nativeCalls, truncated, stream, callable };
  }

  private async *runCalls(
    plan: Extract<ReplyPlan, { type: 'calls' }>,
    reply: CollectedReply,
    step: number,
    records: ToolCallRecord[],
    failures: TurnFailures,
    signal?: AbortSignal,
  ): AsyncGenerator<TurnEvent> {
    this.conversation.add({
      role: 'assistant',
      content: reply.text,
      toolCalls: plan.native ? reply.nativeCalls : undefined,
    });
    if (plan.correction !== undefined) yield { type: 'malformed-call', hint: plan.correction, step };
    const results = yield* this.calls.run(plan.calls, step, failures, signal);
    for (const [index, planned] of plan.calls.entries()) {
      const { call } = planned;
      const result = results[index] as ToolResult;
      records.push(toRecord(call, result));
      if (!planned.refusal && !isFindTools(call)) this.options.toolSelection.noteUsed(call);
      this.conversation.add(resultMessage(call, result, plan.native));
    }
    if (plan.correction !== undefined && plan.calls.length === 0) {
      this.conversation.add({ role: 'user', toolResult: true, content: plan.correction });
    }
  }

  /** Forgets the conversation and the tools it used or found. */
  clear(): void {
    this.conversation.clear();
    this.options.toolSelection.clear();
  }

  /** Forgets what was learned about the model (after switching models). */
  resetModelState(): void {
    this.protocol = undefined;
  }

  private async currentProtocol(): Promise<ToolProtocol> {
    if (this.protocol) return this.protocol;
    const mode = this.options.toolMode;
    // `auto` takes native calls when the model has them; it never picks XML, which is asked for by name.
    const native = mode === 'auto' && (await this.options.llm.capabilities()).tools;
    this.protocol = toolProtocol(mode === 'auto' ? (native ? 'native' : 'json') : mode);
    return this.protocol;
  }
}

function errorEvent(error: unknown): TurnEvent {
  if (error instanceof McpChatError) return { type: 'error', message: error.message, hint: error.hint };
  return { type: 'error', message: error instanceof Error ? error.message : String(error) };
}
