/**
 * `mcp-chat mcp-server`: mcp-chat as an MCP server, for another agent to call. It offers `chat` (a
 * turn on the local model with the configured servers) and, with `--expose-tools`, those servers'
 * tools. Over stdio by default (stdout is the protocol's alone); `--http <port>` serves Streamable
 * HTTP on 127.0.0.1 behind a bearer token. It runs until stdin ends (stdio) or a signal.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpHost } from '../mcp/host.js';
import { createOllamaClient, type OllamaClient } from '../ollama/client.js';
import type { Runtime } from '../session/runtime.js';
import { scriptGate } from '../session/server-request-gate.js';
import { withHost } from '../session/with-host.js';
import { ExitCode } from '../shared/errors.js';
import { chatTool, type ChatToolDeps } from './chat-tool.js';
import { exposedTools } from './exposed-tools.js';
import { toolServer } from './tool-table.js';
import { serveHttp } from './http-transport.js';
import { SavedChats } from './saved-chats.js';

export interface McpServerOptions {
  http?: number;
  token?: string;
  exposeTools?: boolean;
  maxSteps: number;
  modelGiven: boolean;
}

/** Where the command speaks to the person who started it: stderr only, stdout may be the protocol. */
export interface ServerNotices {
  warn: (line: string) => void;
  stderr: (text: string) => void;
  stderrIsTty: boolean;
}

function buildServer(deps: ChatToolDeps, host: McpHost, exposeTools: boolean): Server {
  return toolServer([chatTool(deps), ...(exposeTools ? exposedTools(host) : [])]);
}

/** Resolves once the caller has gone: its end of stdin closed. */
async function serveStdio(server: Server): Promise<void> {
  const ended = new Promise<void>((resolve) => process.stdin.once('end', resolve).once('close', resolve));
  await server.connect(new StdioServerTransport());
  await ended;
  await server.close();
}

/** Serves until a signal ends the process (withHost stops the servers then). */
async function serveUntilStopped(
  create: () => Server,
  port: number,
  given: string | undefined,
  notices: ServerNotices,
): Promise<never> {
  const token = given ?? randomBytes(24).toString('base64url');
  const serving = await serveHttp(port, token, create, (message) => notices.warn(`request failed: ${message}`));
  const tokenNote = given === undefined ? `token: ${token}` : 'token: the one given with --token';
  notices.stderr(
    `mcp-chat mcp-server: listening on ${serving.url} (send "Authorization: Bearer <token>"; ${tokenNote})\n`,
  );
  return new Promise<never>(() => undefined);
}

export async function mcpServerCommand(
  runtime: Runtime,
  notices: ServerNotices,
  options: McpServerOptions,
): Promise<number> {
  const { config, log } = runtime;
  const llmFor = (model: string): OllamaClient => createOllamaClient({ ...config.ollama, model }, log);
  // No one is there to ask whether a server may use the model: its requests are refused.
  const gate = scriptGate(config.servers, () => llmFor(config.ollama.model), log, notices.warn, false);
  const chats = new SavedChats();
  return withHost(
    runtime,
    // A server disabled by a missing variable is the user's choice: said at a terminal, not in a host's log.
    { warn: notices.warn, disabled: notices.stderrIsTty ? notices.warn : (): void => undefined },
    async (host) => {
      const deps = { runtime, host, llmFor, maxSteps: options.maxSteps, modelGiven: options.modelGiven, chats };
      const create = (): Server => buildServer(deps, host, options.exposeTools === true);
      if (options.http === undefined) await serveStdio(create());
      else await serveUntilStopped(create, options.http, options.token, notices);
      return ExitCode.ok;
    },
    { serverRequests: gate },
  );
}
