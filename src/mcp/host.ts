/**
 * The MCP host: starts every configured server in parallel (one failing never stops the others),
 * keeps the tool registry, and routes calls; what servers offer besides tools is in host-*.ts.
 * `callTool` never throws: every failure becomes an error result the model can read.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoggingLevel, Progress, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '../config/types.js';
import type { PromptInfo, ResourceInfo, ResourceTemplateInfo } from '../vocabulary/offers.js';
import { DeclinedRequest, type ServerRequestHandler } from '../vocabulary/server-requests.js';
import type { ChatMessage, ToolCall, ToolHost, ToolProgress, ToolResult, ToolSpec } from '../vocabulary/types.js';
import type { Logger } from '../shared/log.js';
import { JudgedCalls, needsApproval } from './approval-policy.js';
import { describeCallFailure } from './call-failure.js';
import { breakerRefusal, isServerFailure } from './circuit-breaker.js';
import { toResultViews } from './content.js';
import { HostNotifications } from './host-notifications.js';
import { HostOffers } from './host-offers.js';
import { HostServers, withoutCredentials } from './host-servers.js';
import { type ToolVetting, withheldRefusal } from './held-tools.js';
import { listHostTasks } from './host-tasks.js';
import { ManagedServer, type ManagedServerDeps, type ServerStatus } from './managed-server.js';
import { type ServerSetChange, serverSetChange } from './server-set-change.js';
import type { TaskInfo } from './session-tasks.js';
import { ToolCatalogue } from './tool-catalogue.js';

export type { ServerStatus } from './managed-server.js';
export type { TaskInfo } from './session-tasks.js';

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
  /** Holds back each server's tools that changed since the user accepted them; none: all are offered. */
  vetTools?: ToolVetting;
}

/** For a command with no one to ask and nothing to sample with (`tools`, `prompts`): every request declined. */
const DECLINE_ALL: ServerRequestHandler = {
  sample: () => Promise.reject(new DeclinedRequest('this mcp-chat command does not answer sampling requests')),
  fillForm: () => Promise.resolve({ action: 'decline' }),
  visitUrl: () => Promise.resolve('decline'),
  urlCompleted: () => undefined,
};

export class McpHost implements ToolHost {
  private readonly servers: HostServers;
  /** What each server is made with: a server added by a reload gets the same. */
  private readonly deps: ManagedServerDeps;
  private readonly maxResultChars: number | undefined;
  private readonly log: Logger;
  private readonly offers: HostOffers;
  private readonly notifications: HostNotifications;
  private readonly catalogue: ToolCatalogue;
  private readonly judged = new JudgedCalls();

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
      ...(options.vetTools ? { vetTools: options.vetTools } : {}),
    };
    this.deps = deps;
    this.servers = new HostServers(configs.map((config) => new ManagedServer(config, deps)));
    this.catalogue = new ToolCatalogue((line) => options.log.warn({ collision: line }, 'tool renamed or left out'));
    this.offers = new HostOffers(this.servers, options.log);
    this.notifications = new HostNotifications(this.servers);
  }

  /**
   * A new configuration's servers: added ones start, removed ones stop, changed ones restart with
   * their new entry, and the others are left alone. The model's next request sees the new catalogue.
   */
  async reconfigure(configs: ServerConfig[]): Promise<ServerSetChange> {
    const current = this.servers.all();
    const change = serverSetChange(
      current.map((server) => server.config),
      configs,
    );
    const replaced = new Set([...change.removed, ...change.changed.map((config) => config.name)]);
    const leaving = current.filter((server) => replaced.has(server.name));
    const fresh = [...change.added, ...change.changed].map((config) => new ManagedServer(config, this.deps));
    const byName = new Map(
      [...current.filter((server) => !replaced.has(server.name)), ...fresh].map((server) => [server.name, server]),
    );
    // The new order is the config's: the status bar and `tools` follow the file.
    this.servers.replace(configs.flatMap((config) => byName.get(config.name) ?? []));
    // Each stop and start is a state change, which the status bar hears (and reads the new set).
    await Promise.all([...leaving.map((server) => server.close()), ...fresh.map((server) => server.start())]);
    return change;
  }

  /** Starts all servers in parallel and resolves when each is ready or has failed. */
  async start(): Promise<void> {
    await Promise.all(this.servers.all().map((server) => server.start()));
  }

  statuses(): ServerStatus[] {
    return this.servers.all().map((server) => server.status());
  }

  /**
   * Every ready server's tools. The same array comes back until a server's list changes, so
   * what is derived from it (the system prompt) can be kept per catalogue.
   */
  listTools(): ToolSpec[] {
    return this.catalogue.of(this.servers.all());
  }

  /**
   * True when a call must be approved by the user (approval-policy.ts): also whenever the server or
   * its tool list is unknown for the moment. The answer is remembered with the call, for `callTool`.
   */
  requiresApproval(call: ToolCall): boolean {
    const server = this.servers.find(call.server);
    // A tool held back is refused when called, so there is nothing to ask about.
    if (server?.isWithheld(call.tool)) return this.judged.record(call, server, false);
    return this.judged.record(call, server, needsApproval(server, server && this.serverTool(server, call.tool)));
  }

  /** Tools renamed or left out because their names read as another's: one line each, naming both. */
  nameWarnings(): string[] {
    return this.catalogue.warnings(this.servers.all());
  }

  /** The server's own tool offered under `name` (the catalogue's name for it, which may be a new one). */
  private serverTool(server: ManagedServer, name: string): Tool | undefined {
    const original = this.catalogue.original(this.servers.all(), server.name, name);
    return original === undefined ? undefined : server.listTools().find((tool) => tool.name === original);
  }

  async callTool(
    call: ToolCall,
    signal?: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
    maxChars = this.maxResultChars,
  ): Promise<ToolResult> {
    const began = performance.now();
    const finish = (isError: boolean, text: string): ToolResult => ({
      isError,
      forModel: text,
      durationMs: Math.round(performance.now() - began),
    });
    const server = this.servers.find(call.server);
    if (!server) return finish(true, `Unknown server "${call.server}". Available servers: ${this.servers.names()}.`);
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
    // Security: a tool new or changed since the user accepted the server's tools waits for their yes.
    if (server.isWithheld(call.tool)) return finish(true, withheldRefusal(server.name, call.tool));
    const tool = this.serverTool(server, call.tool);
    if (!tool) {
      const known = this.listTools().flatMap((offered) => (offered.server === server.name ? [offered.name] : []));
      return finish(true, `Unknown tool "${call.tool}" on server "${server.name}". Its tools: ${known.join(', ')}.`);
    }
    const refusal = this.judged.refusal(call, server, needsApproval(server, tool));
    if (refusal) return finish(true, refusal);
    try {
      const report = onProgress && ((progress: Progress) => onProgress(progressReport(progress, server)));
      const result = await server.call(tool.name, call.arguments, signal, report);
      // The server answered (an error result is the tool's answer): it works.
      server.breaker.recordSuccess();
      const views = toResultViews(result, maxChars, (text) => withoutCredentials(server, text));
      return { ...finish(views.isError, views.forModel), ...(views.images && { images: views.images }) };
    } catch (error) {
      // The user's cancel says nothing of the server, nor does an error the server sent back.
      if (!signal?.aborted && isServerFailure(error)) server.breaker.recordFailure();
      return finish(true, withoutCredentials(server, describeCallFailure(server, call, error, signal)));
    }
  }

  /** `/enable`, `/disable`: a server turned off leaves the catalogue (and the model's next request) until turned on. */
  async setEnabled(serverName: string, on: boolean): Promise<void> {
    const server = this.servers.require(serverName);
    await (on ? server.enable() : server.disable());
  }

  /** Tools each server's entry turns off (`includeTools`, `excludeTools`), by server, for `tools`. */
  turnedOffTools(): Record<string, string[]> {
    return this.servers.namesBy((server) => server.turnedOffTools());
  }

  /** Tools held back from the model until the user accepts them (new or changed since), by server, for `tools`. */
  heldBackTools(): Record<string, string[]> {
    return this.servers.namesBy((server) => server.heldBackTools());
  }

  /** Every ready server's prompts; a server whose listing fails is left out and logged. */
  listPrompts(): Promise<PromptInfo[]> {
    return this.offers.listPrompts();
  }

  listResources(): Promise<ResourceInfo[]> {
    return this.offers.listResources();
  }

  listResourceTemplates(): Promise<ResourceTemplateInfo[]> {
    return this.offers.listResourceTemplates();
  }

  /**
   * The tasks each ready server knows (`tasks/list`, where it answers it) and those this session
   * started; a server whose listing fails gives only the latter, and the failure is logged.
   */
  listTasks(): Promise<TaskInfo[]> {
    return listHostTasks(this.servers.all(), this.log);
  }

  /** A prompt's messages for `args`; throws an error that names the server and the prompt. */
  getPrompt(serverName: string, name: string, args: Record<string, string>): Promise<ChatMessage[]> {
    return this.offers.getPrompt(serverName, name, args);
  }

  /** A resource's text; throws an error that names the server and the resource. */
  readResource(serverName: string, uri: string): Promise<string> {
    return this.offers.readResource(serverName, uri);
  }

  /**
   * Watches a resource: the server announces its changes (`resources/subscribe`) until `unwatch`,
   * across restarts of the server.
   */
  watch(serverName: string, uri: string): Promise<void> {
    return this.notifications.watch(serverName, uri);
  }

  unwatch(serverName: string, uri: string): Promise<void> {
    return this.notifications.unwatch(serverName, uri);
  }

  /**
   * What a prompt argument's value could be (`completion/complete`), given the others typed so
   * far; none when the server offers no completions, is not up, or fails: Tab must not wait or fail.
   */
  completePromptArgument(
    serverName: string,
    prompt: string,
    argument: { name: string; value: string },
    typed: Record<string, string>,
  ): Promise<string[]> {
    return this.offers.completePromptArgument(serverName, prompt, argument, typed);
  }

  /** Which of its log messages a server sends (`logging/setLevel`). */
  setLogLevel(serverName: string, level: LoggingLevel): Promise<void> {
    return this.notifications.setLogLevel(serverName, level);
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.all().map((server) => server.close()));
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
