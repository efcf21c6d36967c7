/**
 * The MCP host: starts every configured server in parallel (one failing never stops
 * the others), keeps the tool registry, and routes calls. `callTool` never throws:
 * every failure becomes an error result the model can read.
 */
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pathToFileURL } from 'node:url';
import { McpError, ErrorCode, type LoggingLevel, type Progress, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../config/types.js';
import type { PromptInfo, ResourceInfo, ResourceTemplateInfo } from '../vocabulary/offers.js';
import { DeclinedRequest, type ServerRequestHandler } from '../vocabulary/server-requests.js';
import { displayName } from '../vocabulary/tool-naming.js';
import type {
  ChatMessage,
  JsonSchemaObject,
  ToolCall,
  ToolHost,
  ToolProgress,
  ToolResult,
  ToolSpec,
} from '../vocabulary/types.js';
import { errorMessage } from '../shared/errors.js';
import type { Logger } from '../shared/log.js';
import { toResultViews } from './content.js';
import { breakerRefusal, isServerFailure } from './circuit-breaker.js';
import { outputSchemaFailure } from './output-schema.js';
import { hideSecrets } from './server-secrets.js';
import { ManagedServer, type ManagedServerDeps, type ServerStatus } from './managed-server.js';
import { type ServerSetChange, serverSetChange } from './server-set-change.js';
import { listPrompts, listResources, listResourceTemplates, promptMessages, resourceText } from './server-offers.js';
import { listServerTasks, listsTasks, type TaskInfo } from './session-tasks.js';

export type { ServerStatus } from './managed-server.js';
export type { TaskInfo } from './session-tasks.js';

/** A Tab press waits at most this for a server's suggestions. */
const COMPLETION_TIMEOUT_MS = 2_000;

export interface HostOptions {
  log: Logger;
  /** Called on every server state change (the REPL header listens). */
  onStatus?: (status: ServerStatus) => void;
  /** Cap on result text for the model; `mcp-chat call` lifts it to show results whole. */
  maxResultChars?: number;
  /** Absolute directories offered to every server as roots (`file://` URIs); none by default. */
  roots?: string[];
  /** A watched resource changed (`/watch`). */
  onResourceUpdated?: (server: string, uri: string) => void;
  /** A server's prompts or resources changed. */
  onOffersChanged?: (server: string) => void;
  /** Answers servers' sampling and elicitation requests; by default every one is declined. */
  serverRequests?: ServerRequestHandler;
}

/** For a command with no one to ask and nothing to sample with (`tools`, `prompts`): every request declined. */
const DECLINE_ALL: ServerRequestHandler = {
  sample: () => Promise.reject(new DeclinedRequest('this mcp-chat command does not answer sampling requests')),
  fillForm: () => Promise.resolve({ action: 'decline' }),
  visitUrl: () => Promise.resolve('decline'),
  urlCompleted: () => undefined,
};

export class McpHost implements ToolHost {
  private servers: ManagedServer[];
  /** What each server is made with: a server added by a reload gets the same. */
  private readonly deps: ManagedServerDeps;
  private readonly maxResultChars: number | undefined;
  private readonly log: Logger;
  /** The last catalogue built, with the server lists it was built from (replaced, never mutated). */
  private catalogue: { from: Tool[][]; specs: ToolSpec[] } | undefined;

  constructor(configs: ServerConfig[], options: HostOptions) {
    this.maxResultChars = options.maxResultChars;
    this.log = options.log;
    const onChange = options.onStatus ?? ((): void => undefined);
    const roots = (options.roots ?? []).map((dir) => ({
      uri: pathToFileURL(dir).href,
      name: path.basename(dir) || dir,
    }));
    const ignore = (): void => undefined;
    const deps = {
      log: options.log,
      onChange,
      roots,
      onResourceUpdated: options.onResourceUpdated ?? ignore,
      onOffersChanged: options.onOffersChanged ?? ignore,
      serverRequests: options.serverRequests ?? DECLINE_ALL,
    };
    this.deps = deps;
    this.servers = configs.map((config) => new ManagedServer(config, deps));
  }

  /**
   * A new configuration's servers: added ones start, removed ones stop, changed ones restart with
   * their new entry, and the others are left alone. The model's next request sees the new catalogue.
   */
  async reconfigure(configs: ServerConfig[]): Promise<ServerSetChange> {
    const change = serverSetChange(
      this.servers.map((server) => server.config),
      configs,
    );
    const replaced = new Set([...change.removed, ...change.changed.map((config) => config.name)]);
    const leaving = this.servers.filter((server) => replaced.has(server.name));
    const fresh = [...change.added, ...change.changed].map((config) => new ManagedServer(config, this.deps));
    const byName = new Map(
      [...this.servers.filter((server) => !replaced.has(server.name)), ...fresh].map((server) => [server.name, server]),
    );
    // The new order is the config's: the status bar and `tools` follow the file.
    this.servers = configs.flatMap((config) => byName.get(config.name) ?? []);
    // Each stop and start is a state change, which the status bar hears (and reads the new set).
    await Promise.all([...leaving.map((server) => server.close()), ...fresh.map((server) => server.start())]);
    return change;
  }

  /** Starts all servers in parallel and resolves when each is ready or has failed. */
  async start(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.start()));
  }

  statuses(): ServerStatus[] {
    return this.servers.map((server) => server.status());
  }

  /**
   * Every ready server's tools. The same array comes back until a server's list changes, so
   * what is derived from it (the system prompt) can be kept per catalogue.
   */
  listTools(): ToolSpec[] {
    const from = this.servers.map((server) => server.listTools());
    const cached = this.catalogue;
    const same = cached && from.length === cached.from.length && from.every((tools, i) => tools === cached.from[i]);
    if (same) return cached.specs;
    const specs = from.flatMap((tools, index) => {
      const server = this.servers[index] as ManagedServer;
      const instructions = server.instructions();
      return tools.map((tool) => ({
        server: server.name,
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as JsonSchemaObject,
        annotations: tool.annotations,
        ...(instructions === undefined ? {} : { serverInstructions: instructions }),
      }));
    });
    this.catalogue = { from, specs };
    return specs;
  }

  /**
   * True when a call must be approved by the user. It runs without asking only when the user
   * said so: the tool is in the entry's `alwaysAllow`, or the user trusts the server (`trust`)
   * and the tool says it is read-only and not destructive.
   */
  requiresApproval(call: ToolCall): boolean {
    const server = this.findServer(call.server);
    const spec = this.listTools().find((tool) => tool.server === server?.name && tool.name === call.tool);
    if (!server || !spec) return false;
    if (server.config.alwaysAllow.includes(call.tool)) return false;
    // Security: annotations are the server's own claims (hints, says the MCP specification): they
    // count only for a server the user trusts, and a tool that claims to be destructive always asks.
    const hints = spec.annotations;
    return !(server.config.trust && hints?.readOnlyHint === true && hints.destructiveHint !== true);
  }

  async callTool(
    call: ToolCall,
    signal?: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
  ): Promise<ToolResult> {
    const began = performance.now();
    const finish = (isError: boolean, text: string): ToolResult => ({
      isError,
      forModel: text,
      durationMs: Math.round(performance.now() - began),
    });
    const server = this.findServer(call.server);
    if (!server) {
      const known = this.servers.map((s) => s.name).join(', ') || 'none';
      return finish(true, `Unknown server "${call.server}". Available servers: ${known}.`);
    }
    // A server given up on says so; one only resting says for how long.
    if (!server.breaker.allows())
      return finish(true, server.givenUp() ?? breakerRefusal(server.name, server.breaker.state()));
    const unavailable = await server.ensureReady();
    if (unavailable) {
      server.breaker.recordFailure();
      return finish(true, unavailable);
    }
    if (server.turnedOffTools().includes(call.tool))
      return finish(
        true,
        `Tool "${call.tool}" of server "${server.name}" is turned off in its config entry; do without it.`,
      );
    if (!server.listTools().some((tool) => tool.name === call.tool)) {
      const known = server
        .listTools()
        .map((tool) => tool.name)
        .join(', ');
      return finish(true, `Unknown tool "${call.tool}" on server "${server.name}". Its tools: ${known}.`);
    }
    try {
      const report = onProgress && ((progress: Progress) => onProgress(progressReport(progress, server)));
      const result = await server.call(call.tool, call.arguments, signal, report);
      // The server answered (an error result is the tool's answer): it works.
      server.breaker.recordSuccess();
      const views = toResultViews(result, this.maxResultChars, (text) => withoutCredentials(server, text));
      return { ...finish(views.isError, views.forModel), ...(views.images && { images: views.images }) };
    } catch (error) {
      // The user's cancel says nothing of the server, nor does an error the server sent back.
      if (!signal?.aborted && isServerFailure(error)) server.breaker.recordFailure();
      return finish(true, withoutCredentials(server, describeCallFailure(server, call, error, signal)));
    }
  }

  /** `/enable`, `/disable`: a server turned off leaves the catalogue (and the model's next request) until turned on. */
  async setEnabled(serverName: string, on: boolean): Promise<void> {
    const server = this.requireServer(serverName);
    await (on ? server.enable() : server.disable());
  }

  /** Tools each server's entry turns off (`includeTools`, `excludeTools`), by server, for `tools`. */
  turnedOffTools(): Record<string, string[]> {
    return Object.fromEntries(
      this.servers
        .filter((server) => server.turnedOffTools().length > 0)
        .map((server) => [server.name, server.turnedOffTools()]),
    );
  }

  /** Every ready server's prompts; a server whose listing fails is left out and logged. */
  async listPrompts(): Promise<PromptInfo[]> {
    return this.fromReadyServers('prompts', (client, server) => listPrompts(client, server.name));
  }

  async listResources(): Promise<ResourceInfo[]> {
    return this.fromReadyServers('resources', (client, server) => listResources(client, server.name));
  }

  async listResourceTemplates(): Promise<ResourceTemplateInfo[]> {
    return this.fromReadyServers('resource templates', (client, server) => listResourceTemplates(client, server.name));
  }

  /**
   * The tasks each ready server knows (`tasks/list`, where it answers it) and those this session
   * started; a server whose listing fails gives only the latter, and the failure is logged.
   */
  async listTasks(): Promise<TaskInfo[]> {
    const lists = await Promise.all(
      this.servers.map(async (server) => {
        const client = server.readyClient();
        if (!client || !listsTasks(client)) return server.tasks.list();
        try {
          const tasks = await listServerTasks(client, server.tasks, server.name);
          return tasks.map(({ statusMessage, ...task }) => ({
            ...task,
            ...(statusMessage === undefined ? {} : { statusMessage: withoutCredentials(server, statusMessage) }),
          }));
        } catch (error) {
          this.log.warn(
            { server: server.name, err: withoutCredentials(server, errorMessage(error)) },
            'could not list tasks',
          );
          return server.tasks.list();
        }
      }),
    );
    return lists.flat();
  }

  /** A prompt's messages for `args`; throws an error that names the server and the prompt. */
  async getPrompt(serverName: string, name: string, args: Record<string, string>): Promise<ChatMessage[]> {
    const server = this.requireServer(serverName);
    const client = await server.client();
    try {
      const messages = promptMessages(await client.getPrompt({ name, arguments: args }));
      return messages.map((message) => ({ ...message, content: withoutCredentials(server, message.content) }));
    } catch (error) {
      throw new Error(withoutCredentials(server, `prompt ${server.name}:${name} failed: ${errorMessage(error)}`));
    }
  }

  /** A resource's text; throws an error that names the server and the resource. */
  async readResource(serverName: string, uri: string): Promise<string> {
    const server = this.requireServer(serverName);
    const client = await server.client();
    try {
      return withoutCredentials(server, resourceText(await client.readResource({ uri })));
    } catch (error) {
      throw new Error(withoutCredentials(server, `reading ${server.name}:${uri} failed: ${errorMessage(error)}`));
    }
  }

  /**
   * Watches a resource: the server announces its changes (`resources/subscribe`) until `unwatch`,
   * across restarts of the server.
   */
  async watch(serverName: string, uri: string): Promise<void> {
    await this.request(serverName, 'resources', `watching ${uri}`, (_, server) => server.watch(uri, true));
  }

  async unwatch(serverName: string, uri: string): Promise<void> {
    await this.request(serverName, 'resources', `unwatching ${uri}`, (_, server) => server.watch(uri, false));
  }

  /**
   * What a prompt argument's value could be (`completion/complete`), given the others typed so
   * far; none when the server offers no completions, is not up, or fails: Tab must not wait or fail.
   */
  async completePromptArgument(
    serverName: string,
    prompt: string,
    argument: { name: string; value: string },
    typed: Record<string, string>,
  ): Promise<string[]> {
    const server = this.findServer(serverName);
    const client = server?.readyClient();
    if (!client?.getServerCapabilities()?.completions) return [];
    try {
      const { completion } = await client.complete(
        { ref: { type: 'ref/prompt', name: prompt }, argument, context: { arguments: typed } },
        { timeout: COMPLETION_TIMEOUT_MS },
      );
      return completion.values;
    } catch (error) {
      this.log.warn({ server: serverName, prompt, err: error }, 'completion failed');
      return [];
    }
  }

  /** Which of its log messages a server sends (`logging/setLevel`). */
  async setLogLevel(serverName: string, level: LoggingLevel): Promise<void> {
    await this.request(serverName, 'logging', `setting the log level`, (client) => client.setLoggingLevel(level));
  }

  /** One request to a server that must declare `capability`; failures name the server and what was asked. */
  private async request(
    serverName: string,
    capability: 'resources' | 'logging',
    what: string,
    send: (client: Client, server: ManagedServer) => Promise<unknown>,
  ): Promise<void> {
    const server = this.requireServer(serverName);
    const client = await server.client();
    if (capability === 'resources' && client.getServerCapabilities()?.resources?.subscribe !== true)
      throw new Error(`${server.name} does not offer resource subscriptions`);
    if (capability === 'logging' && client.getServerCapabilities()?.logging === undefined)
      throw new Error(`${server.name} does not offer log levels`);
    try {
      await send(client, server);
    } catch (error) {
      throw new Error(withoutCredentials(server, `${server.name}: ${what} failed: ${errorMessage(error)}`));
    }
  }

  private async fromReadyServers<T>(
    what: string,
    list: (client: Client, server: ManagedServer) => Promise<T[]>,
  ): Promise<T[]> {
    const lists = await Promise.all(
      this.servers.map(async (server) => {
        const client = server.readyClient();
        if (!client) return [];
        try {
          return await list(client, server);
        } catch (error) {
          this.log.warn({ server: server.name, err: error }, `could not list ${what}`);
          return [];
        }
      }),
    );
    return lists.flat();
  }

  private requireServer(name: string): ManagedServer {
    const server = this.findServer(name);
    if (server) return server;
    const known = this.servers.map((s) => s.name).join(', ') || 'none';
    throw new Error(`unknown server "${name}" (servers: ${known})`);
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.close()));
  }

  private findServer(name: string): ManagedServer | undefined {
    const wanted = name.toLowerCase();
    return this.servers.find((server) => server.name.toLowerCase() === wanted);
  }
}

/** A server's progress report in our terms; its message is the server's words, so it loses the entry's secrets. */
function progressReport({ progress, total, message }: Progress, server: ManagedServer): ToolProgress {
  return {
    progress,
    ...(total === undefined ? {} : { total }),
    ...(message === undefined ? {} : { message: withoutCredentials(server, message) }),
  };
}

/** Security: what a server says never carries the secrets its entry gives it, to the model or the screen. */
function withoutCredentials(server: ManagedServer, text: string): string {
  return hideSecrets(text, server.config);
}

function describeCallFailure(server: ManagedServer, call: ToolCall, error: unknown, signal?: AbortSignal): string {
  const name = displayName({ server: server.name, tool: call.tool });
  if (signal?.aborted) return `${name} was cancelled by the user.`;
  const schemaFailure = outputSchemaFailure(name, error);
  if (schemaFailure !== undefined) return schemaFailure;
  if (error instanceof McpError) {
    switch (error.code) {
      case ErrorCode.RequestTimeout:
        return `${name} timed out after ${server.config.timeoutMs / 1000} s and was cancelled.`;
      case ErrorCode.InvalidParams:
        return `${name} rejected its arguments: ${error.message}`;
      case ErrorCode.ConnectionClosed:
        return `${name} failed: server "${server.name}" stopped during the call (${server.status().lastError ?? 'no details'}).`;
      default:
        return `${name} failed: ${error.message}`;
    }
  }
  return `${name} failed: ${errorMessage(error)}`;
}
