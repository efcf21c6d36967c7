/**
 * The ACP agent: `initialize`, `session/new`, `session/load`, `session/prompt`, `session/cancel`,
 * `session/close` and `session/set_config_option`, over the SDK's agent app. A session's id is
 * the name it is saved under, so `session/load` finds it again in a later run.
 */
import {
  agent,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type InitializeResponse,
  type LoadSessionRequest,
  type LoadSessionResponse,
  type McpServer,
  type PromptRequest,
  type PromptResponse,
} from '@agentclientprotocol/sdk';
import type { GlobalOptions } from '../session/runtime.js';
import { McpChatError, errorMessage } from '../shared/errors.js';
import type { SessionStore } from '../state/session-store.js';
import { PACKAGE_VERSION } from '../shared/paths.js';
import { openSession, type OpenSession, type SessionSetup } from './acp-session.js';
import { configOptions, setConfigOption } from './config-options.js';
import { promptText, replayUpdates } from './prompt-content.js';
import { runPromptTurn } from './prompt-turn.js';
import { promptUsage } from '../vocabulary/offers.js';

const INITIALIZED: InitializeResponse = {
  protocolVersion: PROTOCOL_VERSION,
  agentCapabilities: {
    loadSession: true,
    promptCapabilities: { image: false, audio: false, embeddedContext: true },
    mcpCapabilities: { http: true, sse: true },
    sessionCapabilities: { close: {} },
  },
  agentInfo: { name: 'mcp-chat', version: PACKAGE_VERSION },
  authMethods: [],
};

interface LiveSession extends OpenSession {
  /** The running turn's stop, while one runs. */
  running?: AbortController;
}

/** A failure of ours as a JSON-RPC error whose message says what to do. */
function asRequestError(error: unknown): unknown {
  if (error instanceof RequestError) return error;
  const hint = error instanceof McpChatError && error.hint ? ` ${error.hint}` : '';
  return new RequestError(-32603, `${errorMessage(error)}${hint}`);
}

export class AcpAgent {
  private readonly sessions = new Map<string, LiveSession>();

  constructor(
    private readonly globals: GlobalOptions,
    private readonly store: SessionStore,
  ) {}

  app(): AgentApp {
    return agent({ name: 'mcp-chat' })
      .onRequest('initialize', () => INITIALIZED)
      .onRequest('session/new', ({ params, client }) =>
        this.guard(async () => {
          const live = await this.open({ cwd: params.cwd, mcpServers: params.mcpServers });
          const configOptions = await this.options(live);
          this.announceCommands(live, client);
          return { sessionId: live.sessionId, configOptions };
        }),
      )
      .onRequest('session/load', ({ params, client }) => this.guard(() => this.load(params, client)))
      .onRequest('session/prompt', ({ params, client }) => this.guard(() => this.prompt(params, client)))
      .onNotification('session/cancel', ({ params }) => {
        const live = this.sessions.get(params.sessionId);
        live?.running?.abort();
        live?.chat.stopServerWork();
      })
      .onRequest('session/close', ({ params }) =>
        this.guard(async () => {
          await this.stop(this.live(params.sessionId), params.sessionId);
          return {};
        }),
      )
      .onRequest('session/set_config_option', ({ params }) =>
        this.guard(async () => {
          const live = this.live(params.sessionId);
          await setConfigOption(live.chat, params);
          return { configOptions: await this.options(live) };
        }),
      );
  }

  /** Resumes a saved session (one open here is stopped first), replayed to the editor before the answer. */
  private async load(params: LoadSessionRequest, client: AgentContext): Promise<LoadSessionResponse> {
    const open = this.sessions.get(params.sessionId);
    if (open) await this.stop(open, params.sessionId);
    const saved = this.store.load(params.sessionId);
    const live = await this.open({ cwd: params.cwd, mcpServers: params.mcpServers, saved });
    for (const update of replayUpdates(saved.screen))
      await client.notify('session/update', { sessionId: live.sessionId, update });
    const configOptions = await this.options(live);
    this.announceCommands(live, client);
    return { configOptions };
  }

  /** One turn at a time per session. */
  private async prompt(params: PromptRequest, client: AgentContext): Promise<PromptResponse> {
    const live = this.live(params.sessionId);
    if (live.running) throw RequestError.invalidRequest(undefined, 'a prompt is already running in this session');
    const running = new AbortController();
    live.running = running;
    try {
      const text = promptText(params.prompt);
      const { signal } = running;
      const warnings = live.warnings.splice(0);
      const turn = { sessionId: params.sessionId, chat: live.chat, client, text, signal, warnings };
      return { stopReason: await runPromptTurn(turn) };
    } finally {
      live.running = undefined;
    }
  }

  private async stop(live: LiveSession, sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
    live.running?.abort();
    await live.close();
  }

  /** Every session's servers stopped: the connection is over. */
  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    for (const live of open) live.running?.abort();
    await Promise.all(open.map((live) => live.close()));
  }

  private async open(request: {
    cwd: string;
    mcpServers: McpServer[];
    saved?: SessionSetup['saved'];
  }): Promise<LiveSession & { sessionId: string }> {
    const opened = await openSession({ globals: this.globals, store: this.store, ...request });
    const sessionId = opened.chat.keeper?.sessionName ?? '';
    const live: LiveSession = { ...opened };
    this.sessions.set(sessionId, live);
    opened.chat.runtime.log.info(
      { sessionId, cwd: request.cwd, resumed: request.saved !== undefined },
      'acp session opened',
    );
    return { ...live, sessionId };
  }

  private live(sessionId: string): LiveSession {
    const live = this.sessions.get(sessionId);
    if (!live) throw RequestError.sessionNotFound(sessionId);
    return live;
  }

  private options(live: LiveSession): ReturnType<typeof configOptions> {
    return configOptions(live.chat, () => live.llm.listModels());
  }

  /**
   * The servers' prompts as slash commands: `/server:prompt arguments…`, as the chat takes them.
   * Called as the handler returns, and sent once the response is on its way: an update for a
   * session the editor has not been told of yet may be dropped.
   */
  private announceCommands(live: LiveSession & { sessionId: string }, client: AgentContext): void {
    setImmediate(() => void this.sendCommands(live, client));
  }

  private async sendCommands(live: LiveSession & { sessionId: string }, client: AgentContext): Promise<void> {
    try {
      const prompts = await live.chat.offers.prompts();
      const availableCommands = prompts.map((prompt) => ({
        name: `${prompt.server}:${prompt.name}`,
        description: prompt.description ?? prompt.title ?? '',
        ...(prompt.arguments.length > 0 ? { input: { hint: promptUsage(prompt) } } : {}),
      }));
      const update = { sessionUpdate: 'available_commands_update', availableCommands } as const;
      await client.notify('session/update', { sessionId: live.sessionId, update });
    } catch (error) {
      live.chat.runtime.log.warn(`prompts not announced: ${errorMessage(error)}`);
    }
  }

  private async guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw asRequestError(error);
    }
  }
}
