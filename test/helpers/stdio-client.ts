/**
 * A real MCP client talking to one of our built servers as its own child process over stdio,
 * as mcp-chat does: what a test sees here is what crosses the process boundary.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT } from './server-configs.js';

export interface BuiltServerOptions {
  /** What the client declares, e.g. `{ roots: { listChanged: true } }`. */
  capabilities?: ClientCapabilities;
  /** Runs before connecting, for handlers of requests the server may send at once (e.g. `roots/list`). */
  beforeConnect?: (client: Client) => void;
  /** The server's working directory (default: this process's). */
  cwd?: string;
  /** Variables added to the SDK's default environment for the server (e.g. `ARXIV_API_URL`). */
  env?: Record<string, string>;
  /** Where the server's stderr goes; 'pipe' makes it readable as `(client.transport as StdioClientTransport).stderr`. */
  stderr?: 'inherit' | 'pipe';
}

/** Starts `dist/servers/<name>/main.js <args>` (`npm run build` first) and connects to it. */
export async function connectBuiltServer(
  name: 'calculator' | 'file' | 'research',
  args: string[],
  clientName: string,
  options: BuiltServerOptions = {},
): Promise<Client> {
  const main = path.join(REPO_ROOT, `dist/servers/${name}/main.js`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [main, ...args],
    stderr: options.stderr ?? 'inherit',
    cwd: options.cwd,
    env: options.env,
  });
  const client = new Client({ name: clientName, version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  options.beforeConnect?.(client);
  await client.connect(transport);
  return client;
}
