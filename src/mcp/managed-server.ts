/**
 * One configured server for the lifetime of the host: its tool list (fetched again when the server
 * says it changed), the resources the user watches, and calls. Its sessions and bounded restarts
 * are server-lifecycle.ts's; nothing it reports carries the secrets its entry gives it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress, Root, Tool } from '@modelcontextprotocol/sdk/types.js';
import { DeclinedRequest, type ServerRequestHandler } from '../vocabulary/server-requests.js';
import { DEFAULT_BREAKER } from '../config/resolve-server.js';
import type { ServerConfig } from '../config/types.js';
import { type BreakerState, CircuitBreaker } from './circuit-breaker.js';
import type { Logger } from '../shared/log.js';
import { connectServer } from './connect.js';
import type { Connection, ServerList } from './connection.js';
import { allPages } from './paginate.js';
import { callServerTool } from './server-call.js';
import { ServerLifecycle, type ServerState, type Session } from './server-lifecycle.js';
import { errorWithoutSecrets, hideSecrets, secretValues } from './server-secrets.js';
import { instructionsForModel } from './server-instructions.js';
import { filterTools } from './tool-filter.js';
import { HeldTools, type ToolVetting } from './held-tools.js';
import { SessionTasks } from './session-tasks.js';
import { WatchedResources } from './watched-resources.js';

/** However often a failing server's probes fail, it is tried again at least this often. */
const BREAKER_CEILING_MS = 5 * 60_000;
/** What a server that is not up offers; one array, so the host's catalogue stays the same. */
const NO_TOOLS: Tool[] = [];
const ignoreProgress = (): void => undefined;

export interface ServerStatus {
  name: string;
  kind: ServerConfig['kind'];
  state: ServerState;
  toolCount: number;
  /** Milliseconds from spawn to a usable tool list, for the last successful start. */
  startMs?: number;
  /** Set while calls are kept away from the server (it failed too often in a row). */
  breaker?: Exclude<BreakerState, { state: 'closed' }>;
  lastError?: string;
  description?: string;
}

export interface ManagedServerDeps {
  log: Logger;
  onChange: (status: ServerStatus) => void;
  /** The directories offered to the server as roots. */
  roots: Root[];
  /** A resource of this server that the user watches changed. */
  onResourceUpdated: (server: string, uri: string) => void;
  /** The server's prompts or resources changed (`list_changed`): whoever keeps a copy asks again. */
  onOffersChanged: (server: string) => void;
  /** Answers the server's sampling and elicitation requests. */
  serverRequests: ServerRequestHandler;
  /** Holds back tools that changed since the user accepted them; none: every tool is offered. */
  vetTools?: ToolVetting;
}

/** Completions a server may ask of the user's model during one tool call: enough for real work, not a loop. */
export const MAX_SAMPLING_PER_CALL = 10;

export class ManagedServer {
  private readonly lifecycle: ServerLifecycle;
  /** The tools the entry does not turn off, offered or held back. */
  private tools: Tool[] = [];
  private readonly held: HeldTools;
  private toolsTurnedOff: string[] = [];
  /** The server's `instructions` for the model, from the last `initialize`; set with the tools it goes with. */
  private instructionsText: string | undefined;
  private readonly log: Logger;
  private readonly watched: WatchedResources;
  /** Sampling requests since the last call began. */
  private samplingRequests = 0;
  /** The tasks this session's calls started on the server, with the last state heard of each. */
  readonly tasks: SessionTasks;
  /** Keeps calls away from the server while it keeps failing. */
  readonly breaker: CircuitBreaker;

  constructor(
    readonly config: ServerConfig,
    private readonly deps: ManagedServerDeps,
  ) {
    this.log = deps.log.child({ server: config.name });
    this.tasks = new SessionTasks(config.name);
    this.watched = new WatchedResources(config, this.log);
    this.held = new HeldTools(config, deps.vetTools, () => deps.onChange(this.status()));
    const { failures, cooldownMs } = config.breaker ?? DEFAULT_BREAKER;
    this.breaker = new CircuitBreaker({ failures, cooldownMs, ceilingMs: Math.max(BREAKER_CEILING_MS, cooldownMs) });
    this.lifecycle = new ServerLifecycle(config, this.log, {
      open: (session) => this.open(session),
      prepare: (connection) => this.prepare(connection),
      changed: () => deps.onChange(this.status()),
    });
  }

  get name(): string {
    return this.config.name;
  }

  status(): ServerStatus {
    return {
      name: this.name,
      kind: this.config.kind,
      state: this.lifecycle.state,
      toolCount: this.held.offered().length,
      startMs: this.lifecycle.startMs,
      lastError: this.lifecycle.lastError,
      description: this.config.description,
      ...this.breakerStatus(),
    };
  }

  private breakerStatus(): Pick<ServerStatus, 'breaker'> {
    const breaker = this.breaker.state();
    return breaker.state === 'closed' ? {} : { breaker };
  }

  listTools(): Tool[] {
    const state = this.lifecycle.state;
    return state === 'ready' || state === 'crashed' ? this.held.offered() : NO_TOOLS;
  }

  /** A tool of the server held back from the model until the user accepts it (it is new or changed). */
  isWithheld(tool: string): boolean {
    return this.held.isWithheld(tool);
  }

  heldBackTools(): string[] {
    return this.held.withheldNames();
  }

  /** Changes only with the tool list (each start lists the tools again): a catalogue kept per tool list holds it. */
  instructions(): string | undefined {
    return this.instructionsText;
  }

  /** Tools of the server its entry turns off: not offered, not callable, but named by `tools`. */
  turnedOffTools(): string[] {
    return this.toolsTurnedOff;
  }

  private open(session: Session): Promise<Connection> {
    return connectServer(this.config, {
      log: this.log,
      timeoutMs: session.timeoutMs,
      signal: session.signal,
      onClosed: session.onClosed,
      roots: this.deps.roots,
      onListChanged: (list) => void this.onListChanged(list, session),
      onResourceUpdated: (uri) => this.deps.onResourceUpdated(this.name, uri),
      serverRequests: {
        server: this.name,
        handler: this.deps.serverRequests,
        countSampling: () => this.countSampling(),
      },
    });
  }

  /** A new session's tools and instructions, and the watches the last one had. */
  private async prepare(connection: Connection): Promise<{ tools: number }> {
    const tools = await listAllTools(connection);
    this.instructionsText = instructionsForModel(connection.client.getInstructions(), this.config);
    this.setTools(tools);
    await this.watched.subscribeAgain(connection.client);
    return { tools: this.held.offered().length };
  }

  private countSampling(): void {
    this.samplingRequests += 1;
    if (this.samplingRequests > MAX_SAMPLING_PER_CALL)
      throw new DeclinedRequest(
        `${this.name} asked for more than ${MAX_SAMPLING_PER_CALL} completions during one call; mcp-chat declines the rest`,
      );
  }

  async watch(uri: string, on: boolean): Promise<void> {
    await this.watched.watch(await this.client(), uri, on);
  }

  /**
   * A changed tool list is fetched again: the host's catalogue (and the model's next request)
   * follows it. Changed prompts or resources are only announced: they are listed when asked for.
   */
  private async onListChanged(list: ServerList, session: Session): Promise<void> {
    const connection = session.current();
    if (!connection) return;
    if (list !== 'tools') {
      this.deps.onOffersChanged(this.name);
      return;
    }
    try {
      const tools = await listAllTools(connection);
      if (!session.current()) return;
      this.setTools(tools);
      this.log.info({ tools: tools.length }, 'server tool list changed');
      this.deps.onChange(this.status());
    } catch (error) {
      this.log.warn({ err: errorWithoutSecrets(error, secretValues(this.config)) }, 'could not refresh the tool list');
    }
  }

  /**
   * The server's tools less those its entry turns off (`includeTools`, `excludeTools`), which are
   * remembered by name; of the rest, those the user has not accepted as they are now wait.
   */
  private setTools(tools: Tool[]): void {
    const { enabled, disabled } = filterTools(tools, this.config);
    this.tools = enabled;
    this.toolsTurnedOff = disabled;
    this.held.set(enabled, this.instructionsText);
  }

  /**
   * Calls a tool on the current session, as server-call.ts says; throws on transport errors, timeouts
   * and cancellation (the host turns those into results).
   */
  async call(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    onProgress?: (progress: Progress) => void,
  ): Promise<CallToolResult> {
    const connection = this.lifecycle.connection;
    if (!connection) throw new Error(`server "${this.name}" is not connected`);
    this.samplingRequests = 0;
    const spec = this.tools.find((known) => known.name === tool);
    return callServerTool(connection.client, spec, tool, args, {
      signal,
      timeoutMs: this.config.timeoutMs,
      onProgress: onProgress ?? ignoreProgress,
      hide: (text) => hideSecrets(text, this.config),
      log: this.log,
      tasks: this.tasks,
    });
  }

  // Its sessions, restarts and what they leave it able to do: server-lifecycle.ts.

  start(): Promise<void> {
    return this.lifecycle.start();
  }

  disable(): Promise<void> {
    return this.lifecycle.disable();
  }

  enable(): Promise<void> {
    return this.lifecycle.enable();
  }

  ensureReady(): Promise<string | undefined> {
    return this.lifecycle.ensureReady();
  }

  givenUp(): string | undefined {
    return this.lifecycle.givenUp();
  }

  client(): Promise<Client> {
    return this.lifecycle.client();
  }

  readyClient(): Client | undefined {
    return this.lifecycle.readyClient();
  }

  close(): Promise<void> {
    return this.lifecycle.close();
  }
}

function listAllTools(connection: Connection): Promise<Tool[]> {
  return allPages(async (cursor) => {
    const page = await connection.client.listTools(cursor ? { cursor } : undefined);
    return { items: page.tools, nextCursor: page.nextCursor };
  });
}
