/**
 * `--expose-tools`: the configured servers' tools offered to the caller as ours, named `server__tool`
 * (the name a model's tool list holds), each call under our rules: one that needs approval is asked
 * of the caller (or denied), and the host refuses what it refuses for the chat (tools held back,
 * turned off, or changed since the user accepted them).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpHost } from '../mcp/host.js';
import type { ToolCall, ToolResult } from '../vocabulary/types.js';
import { displayName, modelName } from '../vocabulary/tool-naming.js';
import { callerApproval } from './caller-approval.js';
import { progressTo, type ToolExtra } from './progress.js';
import type { ToolEntry } from './tool-table.js';

function asCallResult(result: ToolResult): CallToolResult {
  const images = (result.images ?? []).map(({ data, mimeType }) => ({ type: 'image' as const, data, mimeType }));
  return { isError: result.isError, content: [{ type: 'text', text: result.forModel }, ...images] };
}

async function callExposed(server: Server, host: McpHost, call: ToolCall, extra: ToolExtra): Promise<CallToolResult> {
  if (host.requiresApproval(call)) {
    const decision = await callerApproval(server, extra.signal)(call);
    if (decision === 'deny')
      return {
        isError: true,
        content: [{ type: 'text', text: `${displayName(call)} needs approval and was not given it` }],
      };
  }
  return asCallResult(await host.callTool(call, extra.signal, progressTo(extra)));
}

/** Each configured server's tool, offered with the server's own schema (the server checks its arguments). */
export function exposedTools(host: McpHost): ToolEntry[] {
  return host.listTools().map((spec) => ({
    tool: {
      name: modelName(spec),
      ...(spec.description === undefined ? {} : { description: spec.description }),
      // The server's schema as it listed it (the SDK's client read it as this type on the way in).
      inputSchema: spec.inputSchema as Tool['inputSchema'],
      ...(spec.annotations ? { annotations: spec.annotations } : {}),
    },
    run: (args, extra, server) =>
      callExposed(server, host, { server: spec.server, tool: spec.name, arguments: args }, extra),
  }));
}
