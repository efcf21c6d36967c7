/**
 * What a call's outcome becomes: a refusal the model can read, a record for `ask --json`,
 * and the message that carries a result back in the shape the model understands — a
 * `tool` message for native calls, a labelled user message for calls written as text.
 */
import { displayName, modelName } from '../vocabulary/tool-naming.js';
import type { CallId, ChatMessage, ToolCall, ToolCallRecord, ToolResult } from '../vocabulary/types.js';

export function errorResult(text: string): ToolResult {
  return { isError: true, forModel: text, durationMs: 0 };
}

export function deniedResult(call: ToolCall): ToolResult {
  return errorResult(
    `The user did not approve running ${displayName(call)}. It was not run. Do not retry it; tell the user what you would have done instead.`,
  );
}

/**
 * A call the user's cancel stopped (`started`: while it ran, so part of its work may be done) or
 * never let run. The model reads it in the next request; the screen marks the line cancelled.
 */
export function cancelledResult(call: ToolCall, started: boolean): ToolResult {
  const text = started
    ? `${displayName(call)} was cancelled by the user while it ran; part of its work may be done.`
    : `${displayName(call)} was not run: the user cancelled the turn first.`;
  return { ...errorResult(text), cancelled: true };
}

export function toRecord(id: CallId, call: ToolCall, result: ToolResult): ToolCallRecord {
  return {
    id,
    server: call.server,
    tool: call.tool,
    arguments: call.arguments,
    isError: result.isError,
    result: result.forModel,
    durationMs: result.durationMs,
  };
}

/** The message that carries one result back to the model, with its images (given only to a model that can see). */
export function resultMessage(call: ToolCall, result: ToolResult, native: boolean): ChatMessage {
  const images = result.images && result.images.length > 0 ? { images: result.images } : {};
  if (native) return { role: 'tool', content: result.forModel, toolName: modelName(call), ...images };
  const status = result.isError ? 'failed' : 'returned';
  return {
    role: 'user',
    toolResult: true,
    // Provenance label: the model must know this text came from a tool, not from the user.
    content: `[Tool result] ${displayName(call)}(${JSON.stringify(call.arguments)}) ${status}:\n${result.forModel}\n\nUse this result to answer the user, or call another tool if you need more.`,
    ...images,
  };
}
