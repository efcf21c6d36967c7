/**
 * A stdio server's child process, spawned before the MCP client that will speak to it exists.
 *
 * Why: a command's start-up is spent loading code, and a server's start is spent loading its own.
 * Spawning needs only the validated config and the SDK's stdio transport; the SDK's client (with
 * Ajv) and the host are loaded while the children start, on the other cores, instead of before
 * them. `withHost` spawns the configured children first and the host's first connect to
 * each takes its child (`SpawnedChildren.take`); a restart spawns afresh.
 *
 * The SDK's `Client.connect` starts the transport it is given, and a `StdioClientTransport` can
 * start once: `SpawnedChild` is the transport handed to the client, already started underneath.
 * What the child says before the client listens is kept and told in order once it does.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig, StdioServerConfig } from '../config/types.js';

export class SpawnedChild implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly spawned: Promise<void>;
  /** Events from the child not yet told, while the client is not listening; then undefined. */
  private held: Array<() => void> | undefined = [];
  /** The child has exited (its stdio closed). */
  private exited = false;

  constructor(
    readonly config: StdioServerConfig,
    private readonly transport: StdioClientTransport,
  ) {
    // Told at once once the client listens: a message is passed on without a closure of its own.
    transport.onmessage = (message) => {
      if (this.held) this.held.push(() => this.onmessage?.(message));
      else this.onmessage?.(message);
    };
    transport.onerror = (error) => this.tell(() => this.onerror?.(error));
    transport.onclose = () => {
      this.exited = true;
      this.tell(() => this.onclose?.());
    };
    this.spawned = transport.start();
    // A failed spawn is the client's to report, when it starts this transport; until then it is no crash.
    this.spawned.catch(() => undefined);
  }

  /** Spawns the child now (stderr piped: `stderr` hands out its stream before any line is written). */
  static spawn(config: StdioServerConfig): SpawnedChild {
    // Security: only the entry's own variables; the transport adds the SDK's minimal set (PATH, HOME, …).
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd,
      stderr: 'pipe',
    });
    return new SpawnedChild(config, transport);
  }

  /**
   * The client's start: resolves once the child runs, rejects if it could not be spawned. What the
   * child did meanwhile is told on the next turn of the event loop, after the client has sent its
   * `initialize`, so a child that already died fails that request as it would have failed it live.
   */
  async start(): Promise<void> {
    await this.spawned;
    setImmediate(() => {
      const held = this.held ?? [];
      this.held = undefined;
      for (const event of held) event();
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    // A child that exited before the client heard of it takes the client's first messages as a
    // dead pipe would: they go nowhere, and its close, told next, fails what waits for an answer
    // ("Connection closed"). The SDK's transport would refuse them at once ("Not connected").
    if (this.exited && this.held) return Promise.resolve();
    return this.transport.send(message);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  get pid(): number | null {
    return this.transport.pid;
  }

  get stderr(): StdioClientTransport['stderr'] {
    return this.transport.stderr;
  }

  private tell(event: () => void): void {
    if (this.held) this.held.push(event);
    else event();
  }
}

/** The children spawned for a set of configured servers, each taken by the first connect to its server. */
export class SpawnedChildren {
  private readonly waiting = new Map<string, SpawnedChild>();

  /** Spawns every stdio server of `configs` at once; remote servers are connected by the host as before. */
  static spawn(configs: readonly ServerConfig[]): SpawnedChildren {
    const children = new SpawnedChildren();
    for (const config of configs) {
      if (config.kind === 'stdio') children.waiting.set(config.name, SpawnedChild.spawn(config));
    }
    return children;
  }

  /** The child spawned for exactly this entry (the same object), once; a changed entry spawns its own. */
  take(config: StdioServerConfig): SpawnedChild | undefined {
    const child = this.waiting.get(config.name);
    if (child?.config !== config) return undefined;
    this.waiting.delete(config.name);
    return child;
  }

  /** Stops the children no connect took (the command ended before its host started them). */
  async close(): Promise<void> {
    const left = [...this.waiting.values()];
    this.waiting.clear();
    await Promise.all(left.map((child) => child.close()));
  }
}
