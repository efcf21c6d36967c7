/**
 * The servers as the user steers them from the chat: `/reload` and a config file edited while the
 * chat runs, `/enable` and `/disable`, `/watch`, `/loglevel`, `/tasks`. Each answers with the line
 * the user reads; what cannot be done is an error saying why.
 */
import { describeChange } from '../mcp/server-set-change.js';
import { errorMessage } from '../shared/errors.js';
import { watchConfigFile } from './config-watch.js';
import type { NoticeFeed } from './feeds.js';
import type { Runtime } from './runtime.js';
import type { ServerRequestGate } from './server-request-gate.js';
import type { SessionHost, TaskInfo } from './session-host.js';
import { counted } from '../shared/plural.js';

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

export class ServerControls {
  constructor(
    private readonly runtime: Runtime,
    private readonly host: SessionHost,
    private readonly notices: NoticeFeed,
    private readonly gate: ServerRequestGate | undefined,
  ) {}

  /** `/watch @server:uri`: the server's announcements that the resource changed are said between turns. */
  async watch(mention: string, on: boolean): Promise<string> {
    const { server, uri } = parseMention(mention);
    if (on) await this.host.watch(server, uri);
    else await this.host.unwatch(server, uri);
    return on ? `Watching @${server}:${uri}: its changes are shown here.` : `No longer watching @${server}:${uri}.`;
  }

  /**
   * `/reload`, and a change to the config file while the REPL runs: added servers start, removed
   * ones stop, changed ones restart, the rest are left alone. Other settings apply at the next
   * start. An invalid file changes nothing, and says why (each bad field's JSON path).
   */
  async reloadConfig(): Promise<string> {
    const file = this.runtime.configFile;
    if (!file) throw new Error('this session has no config file to reload');
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
    if (server === '') {
      const names = this.host.statuses().map((status) => status.name);
      throw new Error(
        `name the server: /${on ? 'enable' : 'disable'} <server> (${names.join(', ') || 'none configured'})`,
      );
    }
    await this.host.setEnabled(server, on);
    const status = this.host.statuses().find((entry) => entry.name.toLowerCase() === server.toLowerCase());
    const name = status?.name ?? server;
    if (!on) return `${name} is off: its tools are not offered until /enable ${name}.`;
    return status?.state === 'ready'
      ? `${status.name} is on: ${counted(status.toolCount, 'tool')}.`
      : `${name} did not start: ${status?.lastError ?? status?.state ?? 'unknown'}`;
  }

  /** Tools each server's entry turns off, for `tools`. */
  turnedOffTools(): Record<string, string[]> {
    return this.host.turnedOffTools();
  }

  /** Tools held back until the user accepts them (new or changed since they did), for `tools`. */
  heldBackTools(): Record<string, string[]> {
    return this.host.heldBackTools();
  }

  /** `/loglevel <server> <level>`: which of its log messages the server sends (they go to the log file). */
  async setServerLogLevel(server: string, level: string): Promise<string> {
    if (!isLoggingLevel(level)) throw new Error(`log levels: ${LOGGING_LEVELS.join(', ')}`);
    await this.host.setLogLevel(server, level);
    return `${server} now sends its log messages from ${level} up (to ${this.runtime.config.logging.file}).`;
  }

  /** `/tasks`: the tasks the servers know, this session's among them. */
  tasks(): Promise<TaskInfo[]> {
    return this.host.listTasks();
  }
}
