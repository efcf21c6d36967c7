/**
 * One server's sessions over the host's lifetime, and its restart policy: a session that ends on its
 * own is replaced on the next use, until MAX_CRASHES give the server up; `/disable` stops it until
 * `/enable`, which forgives its crashes. A late event of a session no longer wanted is ignored.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServerConfig } from '../config/types.js';
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import { AuthorisationNeeded } from './authorisation-needed.js';
import type { Connection } from './connection.js';
import { displayUrl, errorWithoutSecrets, hideSecrets, secretValues } from './server-secrets.js';

/** Crashes tolerated before a server is given up on: enough for a flaky start, not a crash loop. */
const MAX_CRASHES = 3;
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

/** One session being opened, as whoever opens it sees it. */
export interface Session {
  /** Bound on the initialize handshake. */
  readonly timeoutMs: number;
  /** Aborted when the host closes before the session is open. */
  readonly signal: AbortSignal;
  /** To be called when the session ends other than by our own close. */
  onClosed(): void;
  /** The session's connection while it is the server's current one and ready; undefined once it is not. */
  current(): Connection | undefined;
}

/** What the server the lifecycle runs does with its sessions. */
export interface LifecycleHooks {
  open(session: Session): Promise<Connection>;
  /** Makes a new session usable (its tools, its subscriptions); resolves with what the start's log line adds. */
  prepare(connection: Connection): Promise<{ tools: number }>;
  /** Every change of state. */
  changed(): void;
}

export class ServerLifecycle {
  private connected: Connection | undefined;
  private starting: Promise<void> | undefined;
  private crashes = 0;
  /** Increments on every start, so a late close event from an old session is ignored. */
  private generation = 0;
  private serverState: ServerState = 'starting';
  private lastStartMs: number | undefined;
  private lastFailure: string | undefined;
  /** The start under way, stopped by `close`. */
  private opening: AbortController | undefined;

  constructor(
    private readonly config: ServerConfig,
    private readonly log: Logger,
    private readonly hooks: LifecycleHooks,
  ) {}

  get state(): ServerState {
    return this.serverState;
  }

  get startMs(): number | undefined {
    return this.lastStartMs;
  }

  get lastError(): string | undefined {
    return this.lastFailure;
  }

  get connection(): Connection | undefined {
    return this.connected;
  }

  /** Starts (or restarts) the server; never throws: failures land in `lastError` (and the server's status). */
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
    const opening = new AbortController();
    this.opening = opening;
    try {
      const connection = await this.hooks.open(this.session(generation, opening.signal));
      if (generation !== this.generation) {
        // Turned off while it started: the new session is not wanted.
        await connection.client.close().catch(() => undefined);
        return;
      }
      this.connected = connection;
      const prepared = await this.hooks.prepare(connection);
      // Turned off meanwhile: `disable` has closed this session already.
      if (generation !== this.generation) return;
      this.lastStartMs = Math.round(performance.now() - began);
      this.lastFailure = undefined;
      this.log.info({ ...prepared, startMs: this.lastStartMs }, 'server ready');
      this.setState('ready');
    } catch (error) {
      // Stopped by `close` or `disable`: not a failure of the server.
      if (generation !== this.generation || this.serverState === 'closed') return;
      this.failedToStart(error);
    }
  }

  private session(generation: number, signal: AbortSignal): Session {
    return {
      timeoutMs: startTimeoutMs(this.config),
      signal,
      onClosed: () => this.onUnexpectedClose(generation),
      current: () => (generation === this.generation && this.serverState === 'ready' ? this.connected : undefined),
    };
  }

  private failedToStart(error: unknown): void {
    // A server waiting for the user's sign-in has not failed: the line says what to run.
    const why =
      error instanceof AuthorisationNeeded
        ? error.message
        : `failed to start (${this.describe()}): ${errorMessage(error)}`;
    this.lastFailure = hideSecrets(why, this.config);
    this.log.warn({ err: errorWithoutSecrets(error, secretValues(this.config)) }, 'server failed to start');
    this.setState('failed');
  }

  private onUnexpectedClose(generation: number): void {
    const connection = this.connected;
    if (generation !== this.generation || !connection || this.serverState === 'closed') return;
    this.connected = undefined;
    this.crashes += 1;
    const tail = connection.stderrTail();
    const closeReason = connection.closeReason?.();
    // The SDK closes a session whose stream it cannot read: say so rather than blame the server's exit.
    const what = hideSecrets(closeReason ? `disconnected: ${closeReason}` : 'exited unexpectedly', this.config);
    // The tail is hidden already, line by line, as it was read.
    this.lastFailure = `${what}${tail ? `; last output:\n${tail}` : ''}`;
    this.log.warn({ crashes: this.crashes, reason: what }, 'server stopped unexpectedly');
    this.setState(this.crashes >= MAX_CRASHES ? 'failed' : 'crashed');
  }

  /** `/disable`: the server is stopped and its tools leave the catalogue until `/enable`. */
  async disable(): Promise<void> {
    if (this.serverState === 'disabled' || this.serverState === 'closed') return;
    // A start under way sees the generation change and closes what it opened.
    this.generation += 1;
    const connection = this.connected;
    this.connected = undefined;
    this.setState('disabled');
    await connection?.client.close().catch((error: unknown) => this.log.warn({ err: error }, 'close failed'));
  }

  /** `/enable`: started again, with a clean slate of crashes. */
  async enable(): Promise<void> {
    if (this.serverState !== 'disabled') return;
    this.crashes = 0;
    this.lastFailure = undefined;
    await this.start();
  }

  /** Makes the server usable for a call, restarting it after a crash; returns why it cannot be. */
  async ensureReady(): Promise<string | undefined> {
    const name = this.config.name;
    if (this.serverState === 'disabled') return `server "${name}" is turned off for now (/enable ${name} turns it on)`;
    if (this.serverState === 'crashed') await this.start();
    else if (this.serverState === 'starting') await this.starting;
    if (this.serverState === 'ready' && this.connected) return undefined;
    return this.givenUp() ?? `server "${name}" is not available: ${this.lastFailure ?? this.serverState}`;
  }

  /** Why the server is given up on for the session (it crashed too often), if it is. */
  givenUp(): string | undefined {
    if (this.serverState !== 'failed' || this.crashes < MAX_CRASHES) return undefined;
    return `server "${this.config.name}" crashed ${this.crashes} times and is disabled for this session (${this.lastFailure ?? 'no details'})`;
  }

  /** The session's client for a request other than a tool call; throws saying why the server cannot take one. */
  async client(): Promise<Client> {
    const unavailable = await this.ensureReady();
    if (unavailable || !this.connected) throw new Error(unavailable ?? `server "${this.config.name}" is not connected`);
    return this.connected.client;
  }

  /** A ready server's client, without starting or restarting anything: for listings that must not wait. */
  readyClient(): Client | undefined {
    return this.serverState === 'ready' ? this.connected?.client : undefined;
  }

  async close(): Promise<void> {
    this.setState('closed');
    // A start under way stops its child before the host is closed.
    this.opening?.abort();
    await this.starting;
    const connection = this.connected;
    this.connected = undefined;
    await connection?.client.close().catch((error: unknown) => this.log.warn({ err: error }, 'close failed'));
  }

  private describe(): string {
    // Security: a remote URL's query may carry an API key, so messages show it without one; a
    // command line may too (`--token=…`), so its secret words are hidden.
    return this.config.kind === 'stdio'
      ? hideSecrets([this.config.command, ...this.config.args].join(' '), this.config)
      : displayUrl(this.config.url);
  }

  private setState(state: ServerState): void {
    if (this.serverState === 'closed') return;
    this.serverState = state;
    this.hooks.changed();
  }
}
