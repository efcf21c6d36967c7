/**
 * The stdio entry shared by our servers: connect a server to stdin/stdout and keep
 * diagnostics on stderr (stdout is the JSON-RPC channel).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export async function runStdio(server: McpServer, name: string): Promise<void> {
  const transport = new StdioServerTransport();
  // The host closing our stdin is the normal way to be told to stop.
  process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
  await server.connect(transport);
  process.stderr.write(`${name} MCP server ready on stdio\n`);
}
