/**
 * The MCPChatbot: one user turn as an async generator of typed events, consumed alike
 * by the REPL and `mcp-chat ask`. Policy: at most `maxSteps` model calls per turn (the calls a
 * reply asks for are run by `CallRunner`); a failed turn leaves the history as it was before the
 * turn; a cancelled one stays in it (the user's message, the reply shown so far, each call with its
 * result or why it has none), marked as interrupted, so the next message can refer to it.
 */
import { OllamaError } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import { type ApprovalRule, Approvals } from './approval.js';
import { type CallOutcome, CallRunner, TurnFailures } from './call-runner.js';
import { QuestionBook } from './question-book.js';
import { accountFor, checkMessageFits } from './context-account.js';
import type { ContextSize } from './context-window.js';
import { Conversation } from './conversation.js';
import { interpretReply, type ReplyPlan } from './reply-interpreter.js';
import { templateParser } from './template-parser.js';
import { answerHistoryTokens, answerPrompt } from './answer-format.js';
import { withRoomRetry } from './context-retry.js';
import { RequestWindow, type RoomMaker } from './request-window.js';
import { type CollectedChunks, collectReply } from './reply-collector.js';
import { ReplyStream } from './reply-stream.js';
import { ThinkControl } from './think-control.js';
import { errorEvent, interruptedReply } from './unfinished-turn.js';
import { resultMessage, toRecord } from './tool-execution.js';
import { type ToolProtocol, toolProtocol } from './tool-protocol.js';
import { isFindTools } from './tool-selection/find-tools.js';
import type { ToolSelection } from './tool-selection/tool-selection.js';
import { rankingRequest } from './tool-selection/ranking-request.js';
import type {
  ChatMessage,
  JsonSchema,
  LlmClient,
  LlmRequest,
  NativeToolCall,
  ToolCallRecord,
  ToolHost,
  ToolMode,
  ToolSpec,
  ThinkSetting,
  TurnEvent,
} from '../vocabulary/types.js';

export interface ChatbotOptions {
  llm: LlmClient;
  host: ToolHost;
  /** Which of the host's tools each request offers. */
  toolSelection: ToolSelection;
  /** Which calls wait for the user: each becomes an `approval-request` event. */
  approvalRule: ApprovalRule;
  /** Where approval questions wait for their answer by id; the chatbot's own when not given. */
  questions?: QuestionBook;
  /** Read-only calls of one reply that may run at once. */
  maxParallel: number;
  /** Every configured server, running or not: a call that names one never runs elsewhere. */
  configuredServers: string[];
  log: Logger;
  toolMode: ToolMode;
  maxSteps: number;
  /** `history.max_messages`: an upper bound the user set on the messages a request carries. */
  maxMessages?: number;
  /** The model's context, read at each request (what Ollama reports may change it). */
  context: ContextSize;
  /** `think` for a model that can think; unset leaves it to Ollama. `/think` changes it. */
  think?: ThinkSetting;
  /** The answer must be JSON conforming to this schema: the answer's request carries it as `format`. */
  answerFormat?: JsonSchema;
  /** Makes room before a request whose window would leave messages out, or that Ollama refused as too long. */
  roomMaker?: RoomMaker;
}

/** One model reply, fully received. */
export interface CollectedReply {
  text: string;
  nativeCalls: NativeToolCall[];
  truncated: boolean;
  /** Its reasoning: sent back with its calls. */
  thinking: string;
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
  readonly think: ThinkControl;
  /** The questions its turns wait on: an `approval-request` is answered here, by its id. */
  readonly questions: QuestionBook;
  /** Calls made in this chatbot's life: each call's id is `call_<n>`. */
  private callsMade = 0;
  /** What each request carries of the conversation. */
  private readonly window: RequestWindow;
  /** The reply being received: what of it was shown is kept if the turn is cancelled now. */
  private receiving: ReplyStream | undefined;

  constructor(private readonly options: ChatbotOptions) {
    this.conversation = new Conversation(options.maxMessages);
    this.window = new RequestWindow(this.conversation, options.roomMaker);
    this.think = new ThinkControl(options.think);
    this.questions = options.questions ?? new QuestionBook();
    const { host, toolSelection } = options;
    this.calls = new CallRunner({
      // `find_tools` is answered here, from the catalogue; every other call goes to its server.
      host: {
        listTools: () => host.listTools(),
        callTool: (call, signal, onProgress, maxChars) =>
          isFindTools(call) ? toolSelection.find(call, signal) : host.callTool(call, signal, onProgress, maxChars),
      },
      approvals: new Approvals((call) => !isFindTools(call) && options.approvalRule(call)),
      questions: this.questions,
      maxParallel: options.maxParallel,
      newCallId: () => `call_${++this.callsMade}`,
    });
  }

  /** `input`: what the user typed, or the messages a server's prompt wrote for the turn. */
  async *runTurn(input: string | ChatMessage[], signal?: AbortSignal): AsyncGenerator<TurnEvent> {
    const mark = this.conversation.mark();
    this.conversation.add(...(typeof input === 'string' ? [{ role: 'user' as const, content: input }] : input));
    const records: ToolCallRecord[] = [];
    const failures = new TurnFailures();
    try {
      if (this.options.answerFormat && this.options.host.listTools().length === 0) {
        // Nothing to call: the first request is the answer's.
        yield* this.finishFormatted(1, undefined, records, signal);
        return;
      }
      for (let step = 1; step <= this.options.maxSteps; step++) {
        const reply = yield* withRoomRetry(() => this.streamReply(step, signal), this.window, signal);
        const parser = await templateParser(this.options.llm);
        const plan = interpretReply({ ...reply, parser }, reply.callable, this.options.configuredServers);
        if (plan.type === 'answer') {
          if (this.options.answerFormat) {
            // One more request, for the answer's form only: it may go past the step limit, as the answer is reached.
            yield* this.finishFormatted(step + 1, plan.text, records, signal);
            return;
          }
          const unshown = reply.stream.remainder(plan.text);
          if (unshown) yield { type: 'assistant-delta', text: unshown };
          this.conversation.add({ role: 'assistant', content: plan.text });
          yield { type: 'final', answer: plan.text, steps: step, toolCalls: records };
          return;
        }
        yield* this.runCalls(plan, reply, step, records, failures, signal);
        signal?.throwIfAborted();
      }
      yield { type: 'step-limit', steps: this.options.maxSteps, toolCalls: records };
    } catch (error) {
      if (signal?.aborted) {
        this.conversation.add(interruptedReply(this.receiving?.shown ?? ''));
        yield { type: 'cancelled' };
      } else {
        this.conversation.rollback(mark);
        yield errorEvent(error);
      }
    } finally {
      this.receiving = undefined;
      this.conversation.forgetUnreachable();
    }
  }

  /** Streams one model reply, yielding deltas; falls back to text mode if the model refuses tools. */
  private async *streamReply(step: number, signal?: AbortSignal): AsyncGenerator<TurnEvent, CollectedReply> {
    const protocol = await this.currentProtocol();
    const catalogue = this.options.host.listTools();
    const userMessages = this.conversation.userMessages();
    const { tools, listed, offer, findTools } = await this.options.toolSelection.select(
      catalogue,
      protocol.name,
      rankingRequest(userMessages),
      signal,
    );
    yield { type: 'tools-offered', step, offer };
    const systemPrompt = protocol.systemPrompt(tools, listed);
    const definitions = protocol.offer(tools);
    const inPrompt = { systemPrompt, toolsInPrompt: definitions === undefined };
    const account = accountFor(this.options.context.tokens, inPrompt, offer);
    checkMessageFits(account, userMessages.at(-1) ?? '', this.conversation.all().slice(0, -1));
    const messages = yield* this.window.messages(account, systemPrompt, signal);
    let collected: CollectedChunks;
    try {
      collected = yield* this.request(step, { messages, tools: definitions, signal });
      // The next turn is compacted before it is sent if Ollama's count says the history takes more room.
      this.window.noteCount(collected.usage.inputTokens);
    } catch (error) {
      if (!(error instanceof OllamaError && error.kind === 'no-tool-support' && protocol.name === 'native'))
        throw error;
      this.options.log.info('model refused native tools; switching to text tool calls');
      this.protocol = toolProtocol('json');
      return yield* this.streamReply(step, signal);
    }
    const { stream, nativeCalls, truncated, thinking } = collected;
    // A call is resolved against the whole catalogue: a tool that exists but was not offered still runs.
    const callable = findTools ? [...catalogue, findTools] : catalogue;
    return { text: stream.text, nativeCalls, truncated, thinking, stream, callable };
  }

  /** One model request, with `think` as the model allows; its reply streamed as events, then what it cost. */
  private async *request(step: number, request: LlmRequest): AsyncGenerator<TurnEvent, CollectedChunks> {
    const { llm, context } = this.options;
    const { think, notice } = await this.think.forRequest(llm.model, () => llm.capabilities());
    if (notice !== undefined) {
      this.options.log.warn(notice);
      yield { type: 'notice', text: notice, warning: true };
    }
    const began = performance.now();
    this.receiving = new ReplyStream();
    const collected = yield* collectReply(
      llm.chat(think === undefined ? request : { ...request, think }),
      step,
      context.tokens,
      this.receiving,
    );
    // The reply is whole: what becomes of it is the caller's, cancelled or not.
    this.receiving = undefined;
    const durationMs = Math.round(performance.now() - began);
    yield { type: 'model-reply', raw: collected.stream.text, step, durationMs, usage: collected.usage };
    return collected;
  }

  /**
   * The answer under `format` (see answer-format.ts): the draft, when there is one, asked for once
   * more as JSON. The reply is the answer whatever it holds: no tools were offered, so nothing in
   * it is parsed for calls; whether it conforms is for the caller to check.
   */
  private async *finishFormatted(
    step: number,
    draft: string | undefined,
    records: ToolCallRecord[],
    signal?: AbortSignal,
  ): AsyncGenerator<TurnEvent> {
    const format = this.options.answerFormat as JsonSchema;
    const prompt = answerPrompt(format, draft);
    const history = this.conversation.window(prompt.system, answerHistoryTokens(this.options.context.tokens, prompt));
    const messages = [...history, ...prompt.followUp];
    const { stream } = yield* this.request(step, { messages, format, signal });
    const answer = stream.visibleText.trim();
    const unshown = stream.remainder(answer);
    if (unshown) yield { type: 'assistant-delta', text: unshown };
    this.conversation.add({ role: 'assistant', content: answer });
    yield { type: 'final', answer, steps: step, toolCalls: records };
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
      // Reasoning written inline (`<think>…`) is never sent back as what the model said.
      content: reply.stream.visibleText,
      toolCalls: plan.native ? reply.nativeCalls : undefined,
      // Native calls take their reasoning back with them (Ollama's tool-calling docs); text calls
      // have no such field, and their reasoning stays out of what the model is told it said.
      ...(plan.native && reply.thinking ? { thinking: reply.thinking } : {}),
    });
    if (plan.notice !== undefined) yield { type: 'notice', text: plan.notice };
    if (plan.correction !== undefined) yield { type: 'malformed-call', hint: plan.correction, step };
    const outcomes = yield* this.calls.run(plan.calls, step, failures, signal);
    for (const [index, planned] of plan.calls.entries()) {
      const { call } = planned;
      const { id, result } = outcomes[index] as CallOutcome;
      records.push(toRecord(id, call, result));
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
