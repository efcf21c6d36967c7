/**
 * A real SDK client of `mcp-chat mcp-server` (the built CLI as its child over stdio), in a working
 * directory of the test's own with the shipped config, against a fake Ollama; and the CLI serving
 * HTTP as its own child, for clients that come over the network.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ClientCapabilities, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, cleanEnv } from './run-cli.js';

export interface McpServerClientOptions {
  /** The fake Ollama's URL. */
  ollama: string;
  /** The CLI's working directory, also HOME. */
  workDir: string;
  /** Flags after `mcp-server`. */
  args?: string[];
  /** How the client answers the server's elicitation requests; without it, it declares no elicitation. */
  elicit?: (message: string) => ElicitResult;
}

/** The environment the CLI runs with: no developer settings, the fake Ollama, the log in `workDir`. */
export function mcpServerEnv(ollama: string, workDir: string): Record<string, string> {
  return cleanEnv({ HOME: workDir, OLLAMA_HOST: ollama, MCP_CHAT_LOG_FILE: path.join(workDir, 'log.jsonl') });
}

export async function connectMcpServer(options: McpServerClientOptions): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp-server', ...(options.args ?? [])],
    cwd: options.workDir,
    env: mcpServerEnv(options.ollama, options.workDir),
    stderr: 'pipe',
  });
  const { elicit } = options;
  const capabilities: ClientCapabilities = elicit ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: 'mcp-server-test', version: '1.0.0' }, { capabilities });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  await client.connect(transport);
  return client;
}

/** `listening on <url> (<what it says of the token>)`, the line the HTTP server prints on stderr. */
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp) \((.*)\)\n/;

export interface HttpMcpServer {
  url: string;
  /** What the line said of the token. */
  note: string;
  /** Ends the server (SIGTERM) and resolves once it has exited. */
  stop: () => Promise<void>;
}

/** `mcp-chat mcp-server --http 0 <extra>`; resolves once it says where it listens. */
export function startHttpMcpServer(ollama: string, workDir: string, extra: string[] = []): Promise<HttpMcpServer> {
  const child = spawn(process.execPath, [CLI, 'mcp-server', '--http', '0', ...extra], {
    cwd: workDir,
    env: mcpServerEnv(ollama, workDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = LISTENING.exec(stderr);
      if (match?.[1] && match[2] !== undefined) resolve({ url: match[1], note: match[2], stop });
    });
    child.once('exit', (code) => reject(new Error(`mcp-server exited with ${code}: ${stderr}`)));
  });
}
