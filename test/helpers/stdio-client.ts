/**
 * A real MCP client talking to one of our built servers as its own child process over stdio,
 * as mcp-chat does: what a test sees here is what crosses the process boundary.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT } from './server-configs.js';

/** Starts `dist/servers/<name>/main.js <args>` (`npm run build` first) and connects to it. */
export async function connectBuiltServer(
  name: 'calculator' | 'file' | 'research',
  args: string[],
  clientName: string,
): Promise<Client> {
  const main = path.join(REPO_ROOT, `dist/servers/${name}/main.js`);
  const transport = new StdioClientTransport({ command: process.execPath, args: [main, ...args], stderr: 'inherit' });
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  return client;
}
