/**
 * Runs the calls of one model reply: approval first (tools that change things ask),
 * then the host, then the result in the two shapes the model understands — a `tool`
 * message for native calls, a labelled user message for text calls.
 */
import { sanitizeForDisplay } from '../mcp/content.js';
import type { ChatMessage, ToolCall, ToolCallRecord, ToolHost, ToolResult } from './types.js';

/** Approval seam: the REPL asks the user; `ask` allows only with --yes. */
export interface ApprovalPolicy {
  requiresApproval(call: ToolCall): boolean;
  approve(call: ToolCall, signal?: AbortSignal): Promise<boolean>;
}

export const qualifiedName = (call: Pick<ToolCall, 'server' | 'tool'>): string => `${call.server}.${call.tool}`;

export function errorResult(text: string): ToolResult {
  // A refusal can be a multi-line hint for the model; the screen still gets one line.
  return { isError: true, forModel: text, forDisplay: sanitizeForDisplay(text), durationMs: 0 };
}

export function deniedResult(call: ToolCall): ToolResult {
  return errorResult(
    `The user did not approve running ${qualifiedName(call)}. It was not run. Do not retry it; tell the user what you would have done instead.`,
  );
}

export async function executeCall(
  call: ToolCall,
  host: ToolHost,
  approval: ApprovalPolicy,
  signal?: AbortSignal,
): Promise<ToolResult> {
  if (approval.requiresApproval(call) && !(await approval.approve(call, signal))) return deniedResult(call);
  return host.callTool(call, signal);
}

export function toRecord(call: ToolCall, result: ToolResult): ToolCallRecord {
  return {
    server: call.server,
    tool: call.tool,
    arguments: call.arguments,
    isError: result.isError,
    result: result.forModel,
    durationMs: result.durationMs,
  };
}

/** The message that carries one result back to the model. */
export function resultMessage(call: ToolCall, result: ToolResult, native: boolean): ChatMessage {
  if (native) return { role: 'tool', content: result.forModel, toolName: `${call.server}__${call.tool}` };
  const status = result.isError ? 'failed' : 'returned';
  return {
    role: 'user',
    toolResult: true,
    // Provenance label: the model must know this text came from a tool, not from the user.
    content: `[Tool result] ${qualifiedName(call)}(${JSON.stringify(call.arguments)}) ${status}:\n${result.forModel}\n\nUse this result to answer the user, or call another tool if you need more.`,
  };
}
