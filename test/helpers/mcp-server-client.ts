/**
 * A real SDK client of `mcp-chat mcp-server` (the built CLI as its child over stdio), in a working
 * directory of the test's own with the shipped config, against a fake Ollama.
 */
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
