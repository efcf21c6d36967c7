/**
 * One configured server for the lifetime of the host: start, tool list, calls with a
 * timeout, and bounded restarts. A server that dies is restarted on its next call;
 * after MAX_CRASHES it is marked failed for the session and says why (never with the
 * secrets its entry gives it).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress, Root, Tool } from '@modelcontextprotocol/sdk/types.js';
import { DeclinedRequest, type ServerRequestHandler } from '../vocabulary/server-requests.js';
import { DEFAULT_BREAKER } from '../config/resolve-server.js';
import type { ServerConfig } from '../config/types.js';
import { type BreakerState, CircuitBreaker } from './circuit-breaker.js';
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import { connectServer } from './connect.js';
import type { Connection, ServerList } from './connection.js';
import { allPages } from './paginate.js';
import { callServerTool } from './server-call.js';
import { displayUrl, errorWithoutSecrets, hideSecrets, secretValues } from './server-secrets.js';
import { AuthorisationNeeded } from './authorisation-needed.js';
import { instructionsForModel } from './server-instructions.js';
import { filterTools } from './tool-filter.js';
import { SessionTasks } from './session-tasks.js';
import { WatchedResources } from './watched-resources.js';

/** However often a failing server's probes fail, it is tried again at least this often. */
const BREAKER_CEILING_MS = 5 * 60_000;
/** Crashes tolerated before a server is given up on: enough for a flaky start, not a crash loop. */
const MAX_CRASHES = 3;
/** What a server that is not up offers; one array, so the host's catalogue stays the same. */
const NO_TOOLS: Tool[] = [];
const ignoreProgress = (): void => undefined;
/** Bound on the initialize handshake, so one stuck server cannot hold up start-up forever. */
const START_TIMEOUT_MS = 30_000;

/**
 * A remote connect is a network exchange, which the server's `timeout` is for. A child's
 * start is mostly spawning and loading code, which varies with machine load: a short
 * per-call timeout must not fail it.
 */
function startTimeoutMs(config: ServerConfig): number {
  return config.kind === 'stdio' ? START_TIMEOUT_MS : Math.min(config.timeoutMs, START_TIMEOUT_MS);
}

/** `disabled`: turned off by the user for now (`/disable`); `closed`: the host is shutting down. */
export type ServerState = 'starting' | 'ready' | 'crashed' | 'failed' | 'disabled' | 'closed';

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
}

/** Completions a server may ask of the user's model during one tool call: enough for real work, not a loop. */
export const MAX_SAMPLING_PER_CALL = 10;

export class ManagedServer {
  private connection: Connection | undefined;
  private starting: Promise<void> | undefined;
  private tools: Tool[] = [];
  private toolsTurnedOff: string[] = [];
  /** The server's `instructions` for the model, from the last `initialize`; set with the tools it goes with. */
  private instructionsText: string | undefined;
  private crashes = 0;
  /** Increments on every start, so a late close event from an old session is ignored. */
  private generation = 0;
  private state: ServerState = 'starting';
  private startMs: number | undefined;
  private lastError: string | undefined;
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
    const { failures, cooldownMs } = config.breaker ?? DEFAULT_BREAKER;
    this.breaker = new CircuitBreaker({ failures, cooldownMs, ceilingMs: Math.max(BREAKER_CEILING_MS, cooldownMs) });
  }

  get name(): string {
    return this.config.name;
  }

  status(): ServerStatus {
    return {
      name: this.name,
      kind: this.config.kind,
      state: this.state,
      toolCount: this.tools.length,
      startMs: this.startMs,
      lastError: this.lastError,
      description: this.config.description,
      ...this.breakerStatus(),
    };
  }

  private breakerStatus(): Pick<ServerStatus, 'breaker'> {
    const breaker = this.breaker.state();
    return breaker.state === 'closed' ? {} : { breaker };
  }

  listTools(): Tool[] {
    return this.state === 'ready' || this.state === 'crashed' ? this.tools : NO_TOOLS;
  }

  /** Changes only with the tool list (each start lists the tools again): a catalogue kept per tool list holds it. */
  instructions(): string | undefined {
    return this.instructionsText;
  }

  /** Starts (or restarts) the server; never throws: failures land in `status()`. */
  start(): Promise<void> {
    this.starting ??= this.connect().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.setState('starting');
    const began = performance.now();
    const generation = ++this.generation;
    try {
      const connection = await connectServer(this.config, {
        log: this.log,
        timeoutMs: startTimeoutMs(this.config),
        onClosed: () => this.onUnexpectedClose(generation),
        roots: this.deps.roots,
        onListChanged: (list) => void this.onListChanged(list, generation),
        onResourceUpdated: (uri) => this.deps.onResourceUpdated(this.name, uri),
        serverRequests: {
          server: this.name,
          handler: this.deps.serverRequests,
          countSampling: () => this.countSampling(),
        },
      });
      if (generation !== this.generation) {
        // Turned off while it started: the new session is not wanted.
        await connection.client.close().catch(() => undefined);
        return;
      }
      this.connection = connection;
      const tools = await listAllTools(connection);
      this.instructionsText = instructionsForModel(connection.client.getInstructions(), this.config);
      this.setTools(tools);
      await this.watched.subscribeAgain(connection.client);
      // Turned off meanwhile: `disable` has closed this session already.
      if (generation !== this.generation) return;
      this.startMs = Math.round(performance.now() - began);
      this.lastError = undefined;
      this.log.info({ tools: this.tools.length, startMs: this.startMs }, 'server ready');
      this.setState('ready');
    } catch (error) {
      if (generation !== this.generation) return;
      // A server waiting for the user's sign-in has not failed: the line says what to run.
      const why =
        error instanceof AuthorisationNeeded
          ? error.message
          : `failed to start (${this.describe()}): ${errorMessage(error)}`;
      this.lastError = hideSecrets(why, this.config);
      this.log.warn({ err: errorWithoutSecrets(error, secretValues(this.config)) }, 'server failed to start');
      this.setState('failed');
    }
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
  private async onListChanged(list: ServerList, generation: number): Promise<void> {
    const connection = this.connection;
    if (generation !== this.generation || !connection || this.state !== 'ready') return;
    if (list !== 'tools') {
      this.deps.onOffersChanged(this.name);
      return;
    }
    try {
      const tools = await listAllTools(connection);
      if (generation !== this.generation || this.state !== 'ready') return;
      this.setTools(tools);
      this.log.info({ tools: tools.length }, 'server tool list changed');
      this.deps.onChange(this.status());
    } catch (error) {
      this.log.warn({ err: errorWithoutSecrets(error, secretValues(this.config)) }, 'could not refresh the tool list');
    }
  }

  private onUnexpectedClose(generation: number): void {
    const connection = this.connection;
    if (generation !== this.generation || !connection || this.state === 'closed') return;
    this.connection = undefined;
    this.crashes += 1;
    const tail = connection.stderrTail();
    const closeReason = connection.closeReason?.();
    // The SDK closes a session whose stream it cannot read: say so rather than blame the server's exit.
    const what = hideSecrets(closeReason ? `disconnected: ${closeReason}` : 'exited unexpectedly', this.config);
    // The tail is hidden already, line by line, as it was read.
    this.lastError = `${what}${tail ? `; last output:\n${tail}` : ''}`;
    this.log.warn({ crashes: this.crashes, reason: what }, 'server stopped unexpectedly');
    this.setState(this.crashes >= MAX_CRASHES ? 'failed' : 'crashed');
  }

  /** The server's tools less those its entry turns off (`includeTools`, `excludeTools`), which are remembered by name. */
  private setTools(tools: Tool[]): void {
    const { enabled, disabled } = filterTools(tools, this.config);
    this.tools = enabled;
    this.toolsTurnedOff = disabled;
  }

  /** Tools of the server its entry turns off: not offered, not callable, but named by `tools`. */
  turnedOffTools(): string[] {
    return this.toolsTurnedOff;
  }

  /** `/disable`: the server is stopped and its tools leave the catalogue until `/enable`. */
  async disable(): Promise<void> {
    if (this.state === 'disabled' || this.state === 'closed') return;
    // A start under way sees the generation change and closes what it opened.
    this.generation += 1;
    const connection = this.connection;
    this.connection = undefined;
    this.setState('disabled');
    await connection?.client.close().catch((error: unknown) => this.log.warn({ err: error }, 'close failed'));
  }

  /** `/enable`: started again, with a clean slate of crashes. */
  async enable(): Promise<void> {
    if (this.state !== 'disabled') return;
    this.crashes = 0;
    this.lastError = undefined;
    await this.start();
  }

  /** Makes the server usable for a call, restarting it after a crash; returns why it cannot be. */
  async ensureReady(): Promise<string | undefined> {
    if (this.state === 'disabled')
      return `server "${this.name}" is turned off for now (/enable ${this.name} turns it on)`;
    if (this.state === 'crashed') await this.start();
    else if (this.state === 'starting') await this.starting;
    if (this.state === 'ready' && this.connection) return undefined;
    return this.givenUp() ?? `server "${this.name}" is not available: ${this.lastError ?? this.state}`;
  }

  /** Why the server is given up on for the session (it crashed too often), if it is. */
  givenUp(): string | undefined {
    if (this.state !== 'failed' || this.crashes < MAX_CRASHES) return undefined;
    return `server "${this.name}" crashed ${this.crashes} times and is disabled for this session (${this.lastError ?? 'no details'})`;
  }

  /** The session's client for a request other than a tool call; throws saying why the server cannot take one. */
  async client(): Promise<Client> {
    const unavailable = await this.ensureReady();
    if (unavailable || !this.connection) throw new Error(unavailable ?? `server "${this.name}" is not connected`);
    return this.connection.client;
  }

  /** A ready server's client, without starting or restarting anything: for listings that must not wait. */
  readyClient(): Client | undefined {
    return this.state === 'ready' ? this.connection?.client : undefined;
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
    const connection = this.connection;
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

  describe(): string {
    // Security: a remote URL's query may carry an API key, so messages show it without one; a
    // command line may too (`--token=…`), so its secret words are hidden.
    return this.config.kind === 'stdio'
      ? hideSecrets([this.config.command, ...this.config.args].join(' '), this.config)
      : displayUrl(this.config.url);
  }

  async close(): Promise<void> {
    this.setState('closed');
    const connection = this.connection;
    this.connection = undefined;
    await connection?.client.close().catch((error: unknown) => this.log.warn({ err: error }, 'close failed'));
  }

  private setState(state: ServerState): void {
    if (this.state === 'closed') return;
    this.state = state;
    this.deps.onChange(this.status());
  }
}

function listAllTools(connection: Connection): Promise<Tool[]> {
  return allPages(async (cursor) => {
    const page = await connection.client.listTools(cursor ? { cursor } : undefined);
    return { items: page.tools, nextCursor: page.nextCursor };
  });
}
