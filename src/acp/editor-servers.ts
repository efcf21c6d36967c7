/**
 * The MCP servers an editor passes with `session/new` and `session/load`, merged with the user's
 * config: resolved like an entry of the config file (the same defaults and checks, the session's
 * directory as a local server's cwd), and an editor's server replaces a configured one of its name.
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import { isDisabled, resolveServer } from '../config/resolve-server.js';
import type { ServerEntry } from '../config/schema.js';
import type { AppConfig } from '../config/types.js';

/** What errors about the editor's servers name as their source. */
const SOURCE = "the editor's mcpServers";

const pairs = (list: { name: string; value: string }[]): Record<string, string> =>
  Object.fromEntries(list.map(({ name, value }) => [name, value]));

function entryOf(server: McpServer, cwd: string): ServerEntry {
  if ('type' in server && (server.type === 'http' || server.type === 'sse'))
    return { type: server.type, url: server.url, headers: pairs(server.headers) };
  return { command: server.command, args: server.args, env: pairs(server.env), cwd };
}

/** The config with the editor's servers in it; `cwd` is the session's directory. */
export function withEditorServers(config: AppConfig, servers: readonly McpServer[], cwd: string): AppConfig {
  if (servers.length === 0) return config;
  const names = new Set(servers.map((server) => server.name));
  const merged = {
    servers: config.servers.filter((server) => !names.has(server.name)),
    disabled: config.disabled.filter((server) => !names.has(server.name)),
  };
  const context = { env: { ...process.env, PWD: cwd }, source: SOURCE, serversKey: 'mcpServers' };
  for (const server of servers) {
    const resolved = resolveServer(server.name, entryOf(server, cwd), context);
    if (isDisabled(resolved)) merged.disabled.push(resolved);
    else merged.servers.push(resolved);
  }
  return { ...config, ...merged };
}
