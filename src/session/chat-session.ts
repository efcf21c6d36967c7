/**
 * The composition root of a chat: the one place an `MCPChatbot` is built, for the REPL,
 * `ask`, the benchmarks and the tests alike. It wires the chatbot to the host, the model
 * client and the runtime's settings, and holds what the front ends show and switch:
 * server states, the model, debug output.
 */
import type { ApprovalRule } from '../engine/approval.js';
import type { PromptInfo, ResourceInfo } from '../vocabulary/offers.js';
import type { ServerRequestRecord } from '../vocabulary/server-requests.js';
import { MCPChatbot } from '../engine/orchestrator.js';
import { Compactor, describeCompaction, earlierTurns } from '../engine/compaction.js';
import { SessionStats } from '../engine/session-stats.js';
import type { JsonSchema, LlmClient, ThinkSetting, ToolHost, ToolSpec, TurnEvent } from '../vocabulary/types.js';
import type { DisabledServer } from '../config/types.js';
import type { McpHost, ServerStatus, TaskInfo } from '../mcp/host.js';
import type { OllamaClient } from '../ollama/client.js';
import { EmbeddingRanker } from '../engine/tool-selection/embedding-ranker.js';
import { ToolSelection } from '../engine/tool-selection/tool-selection.js';
import { stateDir } from '../shared/state-dir.js';
import { describeChange } from '../mcp/server-set-change.js';
import { errorMessage } from '../shared/errors.js';
import { watchConfigFile } from './config-watch.js';
import { QuestionSlot, type ServerRequestGate, type UserQuestions } from './server-request-gate.js';
import { DEFAULT_MAX_STEPS } from './limits.js';
import { fileVectorStore } from '../state/vector-store.js';
import { findPrompt, type OfferHost, type ResolvedInput, resolveTurnInput } from './turn-input.js';
import type { Runtime } from './runtime.js';
import type { ChatMessage } from '../vocabulary/types.js';
import type { PullProgress } from '../vocabulary/model-pull.js';
import type { SavedSession } from '../state/session-file.js';
import type { ScreenItem, SessionKeeper } from '../state/session-keeper.js';

export type { ServerStatus } from '../mcp/host.js';

/** What a session needs from the MCP host: `McpHost`, or an in-process host in tests (what servers offer besides tools optional). */
export type SessionHost = ToolHost &
  Pick<McpHost, 'requiresApproval' | 'statuses'> &
  Partial<OfferHost> &
  Partial<
    Pick<
      McpHost,
      | 'watch'
      | 'unwatch'
      | 'setLogLevel'
      | 'listResources'
      | 'completePromptArgument'
      | 'listTasks'
      | 'setEnabled'
      | 'turnedOffTools'
      | 'reconfigure'
    >
  >;

function isOfferHost(host: SessionHost): host is SessionHost & OfferHost {
  return host.listPrompts !== undefined && host.getPrompt !== undefined && host.readResource !== undefined;
}
/** What a session needs from the model client: `OllamaClient`, or a scripted one in tests. */
export type SessionLlm = LlmClient &
  Pick<OllamaClient, 'setModel' | 'checkModel' | 'checkAvailable'> &
  Partial<Pick<OllamaClient, 'embed' | 'pull'>>;

/** Something that happens while the chat runs, for whoever shows it. */
class Feed<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly notify = (value: T): void => {
    for (const listener of this.listeners) listener(value);
  };

  subscribe(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Server state changes (the REPL's status bar). */
export class StatusFeed extends Feed<void> {}

/** Lines a server's announcements bring between turns (a watched resource changed). */
export class NoticeFeed extends Feed<string> {}

/** A server announced that its prompts or resources changed. */
export class OffersFeed extends Feed<void> {}

/** What became of each request a server made of the client (for `debug`). */
export class ServerRequestFeed extends Feed<ServerRequestRecord> {}

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
  /** Where servers' requests for the user go (sampling, elicitation); a session without one refuses them. */
  questions?: QuestionSlot;
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
  /** What the session's turns have cost (`/stats`, `ask --json`'s `stats`). */
  readonly stats = new SessionStats();
  private readonly compactor: Compactor;
  private readonly questions: QuestionSlot;
  private readonly gate: ServerRequestGate | undefined;
  private debugOn: boolean;
  private known: { prompts: PromptInfo[]; resources: ResourceInfo[] } = { prompts: [], resources: [] };
  /** The servers that were up when `known` was last asked for. */
  private offersFrom: string | undefined;
  /** Counts `refreshOffers` listings, so only the latest one's answer is kept. */
  private looks = 0;

  constructor(
    readonly runtime: Runtime,
    private readonly host: SessionHost,
    private readonly llm: SessionLlm,
    options: SessionOptions = {},
  ) {
    this.debugOn = runtime.debug;
    this.status = options.status ?? new StatusFeed();
    this.notices = options.notices ?? new NoticeFeed();
    this.questions = options.questions ?? new QuestionSlot();
    this.serverRequests = options.serverRequests ?? new ServerRequestFeed();
    this.gate = options.gate;
    this.keeper = options.keeper;
    // Changed prompts or resources are listed again on the next look, which a status change brings.
    options.offersChanged?.subscribe(() => {
      this.offersFrom = undefined;
      this.status.notify();
    });
    const { config, log } = runtime;
    this.chatbot = new MCPChatbot({
      llm,
      host,
      log,
      approvalRule: options.approvalRule ?? ((call) => host.requiresApproval(call)),
      toolMode: config.ollama.toolMode,
      maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
      maxParallel: config.tools.maxParallel,
      configuredServers: [...config.servers, ...config.disabled].map((server) => server.name),
      maxMessages: config.history.maxMessages,
      numCtx: config.ollama.numCtx,
      toolSelection: toolSelection(runtime, llm),
      ...(config.ollama.think === undefined ? {} : { think: config.ollama.think }),
      ...(options.answerFormat ? { answerFormat: options.answerFormat } : {}),
    });
    const { compactAt, maxMessages } = config.history;
    this.compactor = new Compactor({
      llm,
      conversation: this.chatbot.conversation,
      numCtx: config.ollama.numCtx,
      maxMessages,
      ...(compactAt === undefined ? {} : { compactAt }),
    });
  }

  /**
   * A typed line as a turn: a prompt's messages or attached resources first, when the line asks
   * for them. `given`: prompt arguments the user gave apart from the line (the REPL asked for them).
   */
  async *runTurn(text: string, signal?: AbortSignal, given?: Record<string, string>): AsyncGenerator<TurnEvent> {
    const input = await this.resolveInput(text, given);
    if (input.type === 'error') {
      yield {
        type: 'error',
        message: input.message,
        ...(input.hint ? { hint: input.hint } : {}),
        ...(input.usage ? { usage: true } : {}),
        ...(input.missing ? { missing: input.missing } : {}),
      };
      return;
    }
    for (const text of input.notices) yield { type: 'notice', text };
    const compacted = await this.compactor.beforeTurn(input.messages, signal);
    if (compacted?.type === 'cancelled') {
      yield { type: 'cancelled' };
      return;
    }
    if (compacted) yield { type: 'notice', text: describeCompaction(compacted, true) };
    yield* this.stats.track(this.chatbot.runTurn(input.messages, signal));
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

  private async resolveInput(text: string, given?: Record<string, string>): Promise<ResolvedInput> {
    const host = this.host;
    // A host that offers no prompts or resources (a test's in-process host) takes every line as typed.
    if (!isOfferHost(host)) return { type: 'messages', messages: [{ role: 'user', content: text }], notices: [] };
    const servers = this.runtime.config.servers.map((server) => server.name);
    return resolveTurnInput(text, host, servers, given);
  }

  /**
   * Tab on a prompt argument: the values the prompt's server suggests for what is typed so far,
   * given the arguments typed before it. `prompt` as after the slash (`server:name` or a unique name).
   */
  async completeArgument(
    prompt: string,
    argument: { name: string; value: string },
    typed: Record<string, string>,
  ): Promise<string[]> {
    const found = findPrompt(prompt, this.known.prompts);
    if (!found || Array.isArray(found) || !this.host.completePromptArgument) return [];
    return this.host.completePromptArgument(found.server, found.name, argument, typed);
  }

  /** The prompts of the running servers (for `help`); remembered for `isPromptName` and completion. */
  async prompts(): Promise<PromptInfo[]> {
    const prompts = isOfferHost(this.host) ? await this.host.listPrompts() : [];
    this.known = { ...this.known, prompts };
    return prompts;
  }

  /**
   * Asks the running servers again for their prompts and resources, for completion and `/prompt`,
   * when the servers that are up have changed (a server's every state change reaches here).
   */
  async refreshOffers(): Promise<void> {
    const ready = this.host
      .statuses()
      .filter((status) => status.state === 'ready')
      .map((status) => status.name)
      .join(' ');
    if (ready === this.offersFrom) return;
    this.offersFrom = ready;
    const look = ++this.looks;
    const host = this.host;
    const [resources, prompts] = await Promise.all([
      host.listResources ? host.listResources() : [],
      isOfferHost(host) ? host.listPrompts() : [],
    ]);
    // A later look (a change announced meanwhile) may have finished first: the older answer must not win.
    if (look === this.looks) this.known = { prompts, resources };
  }

  /** The user cancelled: completions being written for servers stop too (the turn's own stop is its signal). */
  stopServerWork(): void {
    this.gate?.stopSampling();
  }

  /** The screen that asks the user what servers request; returns the detach. */
  attachQuestions(asker: UserQuestions): () => void {
    return this.questions.attach(asker);
  }

  /** What the running servers offered at the last look: for Tab completion, which cannot wait. */
  get knownOffers(): { prompts: PromptInfo[]; resources: ResourceInfo[] } {
    return this.known;
  }

  /** `/watch @server:uri`: the server's announcements that the resource changed are said between turns. */
  async watch(mention: string, on: boolean): Promise<string> {
    const { server, uri } = parseMention(mention);
    const send = on ? this.host.watch : this.host.unwatch;
    if (!send) throw new Error('these servers cannot be watched');
    await send.call(this.host, server, uri);
    return on ? `Watching @${server}:${uri}: its changes are shown here.` : `No longer watching @${server}:${uri}.`;
  }

  /**
   * `/reload`, and a change to the config file while the REPL runs: added servers start, removed
   * ones stop, changed ones restart, the rest are left alone. Other settings apply at the next
   * start. An invalid file changes nothing, and says why (each bad field's JSON path).
   */
  async reloadConfig(): Promise<string> {
    const file = this.runtime.configFile;
    if (!file || !this.host.reconfigure) throw new Error('this session has no config file to reload');
    const next = file.read();
    const change = await this.host.reconfigure(next.servers);
    this.runtime.config = { ...this.runtime.config, servers: next.servers, disabled: next.disabled };
    this.gate?.useServers(next.servers);
    return `Reloaded ${file.path}: ${describeChange(change)}.`;
  }

  /** Reloads whenever the config file changes; what happened is a notice. Returns the stop. */
  watchConfig(): () => void {
    const file = this.runtime.configFile;
    if (!file) return () => undefined;
    return watchConfigFile(file.path, () => {
      this.reloadConfig().then(this.notices.notify, (error: unknown) =>
        this.notices.notify(`The config change was not applied; the running servers are kept. ${errorMessage(error)}`),
      );
    });
  }

  /** `/enable`, `/disable`: a server turned off is stopped and its tools leave the model's next request. */
  async setServerEnabled(server: string, on: boolean): Promise<string> {
    if (!this.host.setEnabled) throw new Error('these servers cannot be turned off');
    if (server === '') {
      const names = this.host.statuses().map((status) => status.name);
      throw new Error(
        `name the server: /${on ? 'enable' : 'disable'} <server> (${names.join(', ') || 'none configured'})`,
      );
    }
    await this.host.setEnabled(server, on);
    const status = this.host.statuses().find((entry) => entry.name.toLowerCase() === server.toLowerCase());
    if (!on)
      return `${status?.name ?? server} is off: its tools are not offered until /enable ${status?.name ?? server}.`;
    return status?.state === 'ready'
      ? `${status.name} is on: ${status.toolCount} tools.`
      : `${status?.name ?? server} did not start: ${status?.lastError ?? status?.state ?? 'unknown'}`;
  }

  /** Tools each server's entry turns off, for `tools`. */
  turnedOffTools(): Record<string, string[]> {
    return this.host.turnedOffTools ? this.host.turnedOffTools() : {};
  }

  /** `/loglevel <server> <level>`: which of its log messages the server sends (they go to the log file). */
  async setServerLogLevel(server: string, level: string): Promise<string> {
    if (!isLoggingLevel(level)) throw new Error(`log levels: ${LOGGING_LEVELS.join(', ')}`);
    if (!this.host.setLogLevel) throw new Error('these servers take no log level');
    await this.host.setLogLevel(server, level);
    return `${server} now sends its log messages from ${level} up (to ${this.runtime.config.logging.file}).`;
  }

  /** `/tasks`: the tasks the servers know, this session's among them; none from a host without tasks. */
  async tasks(): Promise<TaskInfo[]> {
    return this.host.listTasks ? this.host.listTasks() : [];
  }

  /** Whether `/word` runs a prompt: `server:name`, or a name a running server offers (as of the last look). */
  isPromptName(word: string): boolean {
    return word.includes(':') || this.known.prompts.some((prompt) => prompt.name === word);
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
    const previous = this.llm.model;
    this.llm.setModel(name);
    try {
      await this.llm.checkModel();
    } catch (error) {
      this.llm.setModel(previous);
      throw error;
    }
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

/** The levels `logging/setLevel` takes, least severe first. */
const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

function isLoggingLevel(level: string): level is (typeof LOGGING_LEVELS)[number] {
  return (LOGGING_LEVELS as readonly string[]).includes(level);
}

/** `@server:uri` (the `@` optional) into its parts. */
function parseMention(mention: string): { server: string; uri: string } {
  const match = /^@?([A-Za-z0-9][A-Za-z0-9_-]*):(.+)$/.exec(mention.trim());
  if (!match) throw new Error(`name the resource as @server:uri, not "${mention}"`);
  return { server: match[1] as string, uri: match[2] as string };
}

/** The catalogue's budget and ranking, from the config; embeddings when a model is named and the client can embed. */
function toolSelection(runtime: Runtime, llm: SessionLlm): ToolSelection {
  const { config, log } = runtime;
  const model = config.tools.embedModel;
  const embed = llm.embed?.bind(llm);
  const embeddings =
    model !== undefined && embed
      ? new EmbeddingRanker(
          { model, embed: (texts) => embed(model, texts) },
          log,
          fileVectorStore(stateDir(process.env), model, log),
        )
      : undefined;
  return new ToolSelection({
    numCtx: config.ollama.numCtx,
    budgetShare: config.tools.budgetShare,
    alwaysInclude: Object.fromEntries(config.servers.map((server) => [server.name, server.alwaysInclude])),
    ...(embeddings ? { embeddings } : {}),
  });
}
