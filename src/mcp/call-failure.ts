/**
 * What the model reads when a tool call fails rather than answers: the tool by its display name
 * and why, in words it can act on (cancelled by the user, timed out, arguments rejected, the
 * server stopped). The text may quote the server, so the caller hides the entry's secrets in it.
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { displayName } from '../vocabulary/tool-naming.js';
import type { ToolCall } from '../vocabulary/types.js';
import { errorMessage } from '../shared/errors.js';
import type { ManagedServer } from './managed-server.js';
import { outputSchemaFailure } from './output-schema.js';

export function describeCallFailure(
  server: ManagedServer,
  call: ToolCall,
  error: unknown,
  signal?: AbortSignal,
): string {
  const name = displayName({ server: server.name, tool: call.tool });
  if (signal?.aborted) return `${name} was cancelled by the user.`;
  const schemaFailure = outputSchemaFailure(name, error);
  if (schemaFailure !== undefined) return schemaFailure;
  if (error instanceof McpError) {
    switch (error.code) {
      case ErrorCode.RequestTimeout:
        return `${name} timed out after ${server.config.timeoutMs / 1000} s and was cancelled.`;
      case ErrorCode.InvalidParams:
        return `${name} rejected its arguments: ${error.message}`;
      case ErrorCode.ConnectionClosed:
        return `${name} failed: server "${server.name}" stopped during the call (${server.status().lastError ?? 'no details'}).`;
      default:
        return `${name} failed: ${error.message}`;
    }
  }
  return `${name} failed: ${errorMessage(error)}`;
}
