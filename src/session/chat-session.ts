/**
 * The composition root of a chat: the one place an `MCPChatbot` is built, for the REPL, `ask` and
 * the tests alike. It wires the chatbot to the host, the model client and the runtime's settings,
 * runs turns, takes every answer to a question by its id, and holds what the front ends show and
 * switch: the model, debug output, the conversation kept. The services behind slash commands are
 * its `offers` (prompts and resources) and `servers` (reload, enable, watch, log level, tasks).
 */
import type { ApprovalRule } from '../engine/approval.js';
import type { MCPChatbot } from '../engine/orchestrator.js';
import { Compactor, describeCompaction, describeRoomMade, earlierTurns } from '../engine/compaction.js';
import { ContextWindow } from '../engine/context-window.js';
import { QuestionBook } from '../engine/question-book.js';
import type { RoomMaker } from '../engine/request-window.js';
import { SessionStats } from '../engine/session-stats.js';
import type { Decision, QuestionChange } from '../vocabulary/questions.js';
import type { ChatMessage, JsonSchema, QuestionId, ThinkSetting, ToolSpec, TurnEvent } from '../vocabulary/types.js';
import type { PullProgress } from '../vocabulary/model-pull.js';
import type { DisabledServer } from '../config/types.js';
import { errorMessage } from '../shared/errors.js';
import type { SavedSession } from '../state/session-file.js';
import type { ScreenItem, SessionKeeper } from '../state/session-keeper.js';
import { NoticeFeed, OffersFeed, ServerRequestFeed, StatusFeed } from './feeds.js';
import type { Runtime } from './runtime.js';
import { ServerControls } from './server-controls.js';
import type { ServerRequestGate } from './server-request-gate.js';
import type { ServerStatus, SessionHost, SessionLlm } from './session-host.js';
import { SessionOffers } from './session-offers.js';
import { buildChatbot } from './chatbot-build.js';

export type { ServerStatus, SessionHost, SessionLlm } from './session-host.js';
export { NoticeFeed, OffersFeed, ServerRequestFeed, StatusFeed } from './feeds.js';

export interface SessionOptions {
  /** Model calls allowed per turn; `DEFAULT_MAX_STEPS` when not given. */
  maxSteps?: number;
  /** Which calls wait for the user; by default the host's rule (not read-only, not in `alwaysAllow`). */
  approvalRule?: ApprovalRule;
  /** Where the host reports state changes; a session over a host that never changes needs none. */
  status?: StatusFeed;
  /** Where the host's announcements are said; a session whose host announces nothing needs none. */
  notices?: NoticeFeed;
  /** Where the host says a server's prompts or resources changed. */
  offersChanged?: OffersFeed;
  /** Where every question of the session waits for its answer (shared with the gate); its own when not given. */
  questions?: QuestionBook;
  /** Where what became of each server request is said. */
  serverRequests?: ServerRequestFeed;
  /** What answers servers' requests, so a cancel can stop what it runs. */
  gate?: ServerRequestGate;
  /** Where the conversation is saved after each turn; none: nothing is kept. */
  keeper?: SessionKeeper;
  /** `ask --output-schema`: the answer is JSON conforming to this schema (Ollama's `format`). */
  answerFormat?: JsonSchema;
}

export class ChatSession {
  readonly chatbot: MCPChatbot;
  readonly status: StatusFeed;
  readonly notices: NoticeFeed;
  readonly serverRequests: ServerRequestFeed;
  readonly keeper: SessionKeeper | undefined;
  /** What the running servers offer besides tools: prompts, resources, completion. */
  readonly offers: SessionOffers;
  /** The servers as the user steers them: reload, enable, watch, log level, tasks. */
  readonly servers: ServerControls;
  /** What the session's turns have cost (`/stats`, `ask --json`'s `stats`). */
  readonly stats = new SessionStats();
  /** The model's context every budget is a share of: `ollama.num_ctx`, or what Ollama reports. */
  readonly context: ContextWindow;
  private readonly questions: QuestionBook;
  private readonly compactor: Compactor;
  private readonly gate: ServerRequestGate | undefined;
  private debugOn: boolean;

  constructor(
    readonly runtime: Runtime,
    private readonly host: SessionHost,
    private readonly llm: SessionLlm,
    options: SessionOptions = {},
  ) {
    this.debugOn = runtime.debug;
    this.status = options.status ?? new StatusFeed();
    this.notices = options.notices ?? new NoticeFeed();
    this.questions = options.questions ?? new QuestionBook();
    this.serverRequests = options.serverRequests ?? new ServerRequestFeed();
    this.gate = options.gate;
    this.keeper = options.keeper;
    this.offers = new SessionOffers(host, () => runtime.config.servers.map((server) => server.name));
    this.servers = new ServerControls(runtime, host, this.notices, options.gate);
    // Changed prompts or resources are listed again on the next look, which a status change brings.
    options.offersChanged?.subscribe(() => {
      this.offers.forget();
      this.status.notify();
    });
    this.context = new ContextWindow(runtime.config.ollama.numCtx, llm.modelContext?.bind(llm));
    // Called only once a turn runs, when the compactor (built over the chatbot's conversation) exists.
    const roomMaker: RoomMaker = { beforeRequest: (cause, signal) => this.compactor.beforeRequest(cause, signal) };
    this.chatbot = buildChatbot(runtime, host, llm, this.questions, { ...options, roomMaker, context: this.context });
    const { compactAt, maxMessages } = runtime.config.history;
    this.compactor = new Compactor({
      llm,
      conversation: this.chatbot.conversation,
      context: this.context,
      ...(maxMessages === undefined ? {} : { maxMessages }),
      ...(compactAt === undefined ? {} : { compactAt }),
    });
  }

  /**
   * A typed line as a turn: a prompt's messages or attached resources first, when the line asks
   * for them. `given`: prompt arguments the user gave apart from the line (the REPL asked for them).
   */
  async *runTurn(text: string, signal?: AbortSignal, given?: Record<string, string>): AsyncGenerator<TurnEvent> {
    const input = await this.offers.resolve(text, given);
    if (input.type === 'error') {
      yield input;
      return;
    }
    // Security: a prompt's messages are shown before the model is sent them, every one, whatever its role.
    if (input.prompt) {
      const { server, name } = input.prompt;
      yield { type: 'prompt-messages', server, prompt: name, messages: input.messages };
    }
    for (const text of input.notices) yield { type: 'notice', text };
    // Once Ollama has said what the loaded model has, it keeps that context: no need to ask every turn.
    if (this.context.unsettled(this.llm.model)) await this.context.refresh(this.llm.model);
    const made = await this.compactor.beforeTurn(input.messages, signal);
    if (made?.outcome?.type === 'cancelled') {
      yield { type: 'cancelled' };
      return;
    }
    if (made) yield { type: 'notice', text: describeRoomMade(made) };
    yield* this.stats.track(this.learningContext(this.chatbot.runTurn(input.messages, signal)));
  }

  /** Once a reply has loaded the model, `/api/ps` says its context: learned before the next request is built. */
  private async *learningContext(events: AsyncIterable<TurnEvent>): AsyncGenerator<TurnEvent> {
    for await (const event of events) {
      if (event.type === 'model-reply' && this.context.unsettled(this.llm.model))
        await this.context.refresh(this.llm.model);
      yield event;
    }
  }

  /**
   * Answers a question by its id: a call's approval (`approval-request`) or a server's request.
   * False when no such question waits, or the decision does not fit it.
   */
  answer(id: QuestionId, decision: Decision): boolean {
    return this.questions.answer(id, decision);
  }

  /**
   * Hears the servers' questions as they are asked and settled (a front end that can ask a person),
   * those asked before it listened first: servers start before the REPL's first frame.
   */
  subscribeQuestions(listener: (change: QuestionChange) => void): () => void {
    for (const question of this.questions.waiting()) listener({ type: 'asked', question });
    return this.questions.subscribe(listener);
  }

  /**
   * `/compact`: the oldest turns replaced by a summary the model writes; the line says what
   * happened or why not. A saved session is saved again at once, so quitting now keeps the summary.
   */
  async compact(): Promise<string> {
    // The summary may take a while, and nothing else shows that it is being written.
    const onStart = (turns: number): void => this.notices.notify(`Summarising ${earlierTurns(turns)}…`);
    const outcome = await this.compactor.compact(undefined, onStart);
    const line = describeCompaction(outcome);
    if (outcome.type !== 'compacted') return line;
    try {
      await this.keeper?.resave(this.conversationMessages());
      return line;
    } catch (error) {
      return `${line} The session file could not be saved: ${errorMessage(error)}.`;
    }
  }

  /** The user cancelled: completions being written for servers stop too (the turn's own stop is its signal). */
  stopServerWork(): void {
    this.gate?.stopSampling();
  }

  get model(): string {
    return this.llm.model;
  }

  get debug(): boolean {
    return this.debugOn;
  }

  /** `think` for later requests (`/think`): `undefined` leaves it to Ollama. */
  get think(): ThinkSetting | undefined {
    return this.chatbot.think.setting;
  }

  setThink(think: ThinkSetting | undefined): void {
    this.chatbot.think.setting = think;
  }

  /** Whether the model's `/api/show` lists `thinking`. */
  async modelCanThink(): Promise<boolean> {
    return (await this.llm.capabilities()).thinking;
  }

  /** Debug shows raw replies, parsed calls and timings, and logs at debug level while on. */
  toggleDebug(): boolean {
    this.debugOn = !this.debugOn;
    this.runtime.log.level = this.debugOn ? 'debug' : this.runtime.config.logging.level;
    return this.debugOn;
  }

  get logLevel(): string {
    return this.runtime.log.level;
  }

  listTools(): ToolSpec[] {
    return this.host.listTools();
  }

  statuses(): ServerStatus[] {
    return this.host.statuses();
  }

  disabledServers(): DisabledServer[] {
    return this.runtime.config.disabled;
  }

  clearConversation(): void {
    this.chatbot.clear();
    // The conversation saved so far stays as it was; what follows is a new session.
    this.keeper?.startNew();
  }

  /** What the model is sent again on the next turn: the history a resumed session restores. */
  conversationMessages(): readonly ChatMessage[] {
    return this.chatbot.conversation.all();
  }

  /** Carries on a saved session: its messages go with the next request, later turns are saved to it. */
  restoreConversation(saved: SavedSession): void {
    this.chatbot.clear();
    this.chatbot.conversation.add(...saved.messages);
    this.keeper?.adopt(saved);
  }

  /**
   * Saves the session after a turn, with what the screen showed since the last save: built now,
   * written in the background. Resolves once on disk (undefined when no session is kept); rejects
   * when the file cannot be written.
   */
  async saveTurn(shown: readonly ScreenItem[], answered: boolean): Promise<SavedSession | undefined> {
    return this.keeper?.save({ model: this.model, messages: this.conversationMessages(), shown, answered });
  }

  /** Switches only to a model Ollama has, so a typo never breaks the next turn. */
  async switchModel(name: string): Promise<void> {
    // Checked before it is set: a check running meanwhile (the one at start) still sees the current model.
    await this.llm.checkModel(name);
    this.llm.setModel(name);
    this.chatbot.resetModelState();
  }

  /** Whether the model client can download models (a scripted one in tests may not). */
  get canPullModels(): boolean {
    return this.llm.pull !== undefined;
  }

  /** Downloads `name` through Ollama, yielding its progress; the model in use stays as it is. */
  pullModel(name: string, signal: AbortSignal): AsyncGenerator<PullProgress> {
    if (!this.llm.pull) throw new Error('this chat cannot pull models');
    return this.llm.pull(name, signal);
  }

  /** Checks Ollama once at start, so a problem is explained before the first message. */
  async checkOllama(): Promise<void> {
    await this.llm.checkAvailable();
    await this.llm.checkModel();
  }
}
