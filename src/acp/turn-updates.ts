/**
 * A turn's events as ACP `session/update`s: text and reasoning as chunks, each tool call as a
 * `tool_call` under our call id followed by `tool_call_update`s with its status and result, and
 * how the turn ended as the prompt's `stopReason`. Pure: the agent sends what this returns.
 */
import type { SessionUpdate, StopReason, ToolCallContent, ToolKind } from '@agentclientprotocol/sdk';
import type { ToolAnnotations, ToolCall, ToolResult, TurnEvent } from '../vocabulary/types.js';
import { displayName } from '../vocabulary/tool-naming.js';
import { assertNever } from '../shared/errors.js';
import { promptMessagesView } from '../present/prompt-messages.js';

/** What a turn's end means to the editor; `failed` is answered with a JSON-RPC error instead of a stop reason. */
export type TurnEnd = { stopReason: StopReason } | { failed: { message: string; hint?: string } };

const text = (value: string): { type: 'text'; text: string } => ({ type: 'text', text: value });

/** A read-only tool reads; one that says it destroys edits; the editor shows the rest as other work. */
export function toolKind(annotations: ToolAnnotations | undefined): ToolKind {
  if (annotations?.destructiveHint === true) return 'edit';
  if (annotations?.readOnlyHint === true) return 'read';
  return 'other';
}

/** The call as the editor first sees it: named `server.tool`, its arguments as they were given. */
export function toolCallUpdate(id: string, call: ToolCall, kind: ToolKind): SessionUpdate {
  return {
    sessionUpdate: 'tool_call',
    toolCallId: id,
    title: displayName(call),
    kind,
    status: 'pending',
    rawInput: call.arguments,
  };
}

/** The call's result as text content, and whether it failed. */
export function resultUpdate(id: string, result: ToolResult): SessionUpdate {
  const content: ToolCallContent[] = [{ type: 'content', content: text(result.forModel) }];
  const status = result.isError ? 'failed' : 'completed';
  return { sessionUpdate: 'tool_call_update', toolCallId: id, status, content, rawOutput: { isError: result.isError } };
}

export const messageChunk = (value: string): SessionUpdate => ({
  sessionUpdate: 'agent_message_chunk',
  content: text(value),
});
export const userChunk = (value: string): SessionUpdate => ({
  sessionUpdate: 'user_message_chunk',
  content: text(value),
});

/** The updates an event brings; the approval question is the agent's to ask (`session/request_permission`). */
export function updatesFor(event: TurnEvent, kindOf: (call: ToolCall) => ToolKind): SessionUpdate[] {
  switch (event.type) {
    case 'assistant-delta':
      return [messageChunk(event.text)];
    case 'thinking-delta':
      return [{ sessionUpdate: 'agent_thought_chunk', content: text(event.text) }];
    case 'tool-call':
      return [toolCallUpdate(event.id, event.call, kindOf(event.call))];
    case 'tool-progress':
      return [{ sessionUpdate: 'tool_call_update', toolCallId: event.id, status: 'in_progress' }];
    case 'tool-result':
      return [resultUpdate(event.id, event.result)];
    case 'prompt-messages':
      // Security: what a server's prompt puts in the model's mouth is shown, as the other front ends show it.
      return [userChunk(promptMessagesView(event.server, event.prompt, event.messages))];
    case 'notice':
      return [messageChunk(`${event.text}\n\n`)];
    case 'thought':
    case 'model-reply':
    case 'tools-offered':
    case 'malformed-call':
    case 'approval-request':
    case 'error':
    case 'final':
    case 'step-limit':
    case 'cancelled':
      return [];
    default:
      return assertNever(event);
  }
}

/** How the turn ended, once an event says so. */
export function endOf(event: TurnEvent): TurnEnd | undefined {
  switch (event.type) {
    case 'final':
      return { stopReason: 'end_turn' };
    case 'step-limit':
      return { stopReason: 'max_turn_requests' };
    case 'cancelled':
      return { stopReason: 'cancelled' };
    case 'error':
      return { failed: { message: event.message, ...(event.hint ? { hint: event.hint } : {}) } };
    default:
      return undefined;
  }
}
