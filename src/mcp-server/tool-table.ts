/**
 * The tools `mcp-chat mcp-server` offers, on the SDK's low-level `Server`: each one's JSON Schema as
 * it is (a configured server's own, or ours written as JSON Schema), `tools/list` and `tools/call`
 * answered from one table. Why not `McpServer`: it takes zod schemas and converts them to JSON
 * Schema with zod 3's converter, code that the bundler then carries into the chunks every other
 * command loads at start.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../shared/errors.js';
import { PACKAGE_VERSION } from '../shared/paths.js';
import type { ToolExtra } from './progress.js';

export interface ToolEntry {
  tool: Tool;
  /** `server`: the one serving the call, for what is asked of its caller (elicitation). */
  run: (args: Record<string, unknown>, extra: ToolExtra, server: Server) => Promise<CallToolResult>;
}

export const failed = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** A server offering `entries`, in their order. */
export function toolServer(entries: readonly ToolEntry[]): Server {
  const server = new Server({ name: 'mcp-chat', version: PACKAGE_VERSION }, { capabilities: { tools: {} } });
  const byName = new Map(entries.map((entry) => [entry.tool.name, entry]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: entries.map((entry) => entry.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const entry = byName.get(request.params.name);
    // As the protocol has it: a tool that is not there is the caller's mistake, said as a tool error.
    if (!entry) return failed(`no tool named "${request.params.name}"; tools/list names the tools offered`);
    try {
      return await entry.run(request.params.arguments ?? {}, extra, server);
    } catch (error) {
      // What a tool could not do is its result, for the caller's model to read, not a protocol failure.
      return failed(errorMessage(error));
    }
  });
  return server;
}
