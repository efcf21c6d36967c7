/**
 * `--expose-tools`: the configured servers' tools offered to the caller as ours, named `server__tool`
 * (the name a model's tool list holds), each call under our rules: one that needs approval is asked
 * of the caller (or denied), and the host refuses what it refuses for the chat (tools held back,
 * turned off, or changed since the user accepted them).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { McpHost } from '../mcp/host.js';
import type { JsonSchemaObject, ToolCall, ToolResult } from '../vocabulary/types.js';
import { displayName, modelName } from '../vocabulary/tool-naming.js';
import { callerApproval } from './caller-approval.js';
import { progressTo, type ToolExtra } from './progress.js';

type FromJsonSchema = Parameters<typeof z.fromJSONSchema>[0];

/** The server's own schema, so the caller sees the arguments it takes; one zod cannot read takes any object. */
function argumentsSchema(schema: JsonSchemaObject): z.ZodType<Record<string, unknown>> {
  try {
    // A server's schema is JSON Schema as it sent it; zod reads what it can and throws on the rest.
    return z.fromJSONSchema(schema as FromJsonSchema) as z.ZodType<Record<string, unknown>>;
  } catch {
    // The server checks its arguments itself; a schema we cannot express only loses the early check.
    return z.looseObject({});
  }
}

function asCallResult(result: ToolResult): CallToolResult {
  const images = (result.images ?? []).map(({ data, mimeType }) => ({ type: 'image' as const, data, mimeType }));
  return { isError: result.isError, content: [{ type: 'text', text: result.forModel }, ...images] };
}

async function callExposed(
  server: McpServer,
  host: McpHost,
  call: ToolCall,
  extra: ToolExtra,
): Promise<CallToolResult> {
  if (host.requiresApproval(call)) {
    const decision = await callerApproval(server.server, extra.signal)(call);
    if (decision === 'deny')
      return {
        isError: true,
        content: [{ type: 'text', text: `${displayName(call)} needs approval and was not given it` }],
      };
  }
  return asCallResult(await host.callTool(call, extra.signal, progressTo(extra)));
}

export function registerExposedTools(server: McpServer, host: McpHost): void {
  for (const spec of host.listTools()) {
    server.registerTool(
      modelName(spec),
      {
        description: spec.description,
        inputSchema: argumentsSchema(spec.inputSchema),
        ...(spec.annotations ? { annotations: spec.annotations } : {}),
      },
      (args: Record<string, unknown>, extra) =>
        callExposed(server, host, { server: spec.server, tool: spec.name, arguments: args }, extra),
    );
  }
}
