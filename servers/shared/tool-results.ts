/**
 * Result builders shared by our MCP servers. Expected failures are returned as
 * `isError` results the model can read and act on, never thrown.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
