/**
 * A turn's events as the wire's messages: the answer's text chunks, a `status` around each tool
 * call and at the turn's end, approvals by id, errors by kind. Pure: the live session sends what
 * this returns to every connection of the session.
 */
import { assertNever } from '../shared/errors.js';
import type { ToolCall, TurnEvent } from '../vocabulary/types.js';
import type { ServerMessage } from './protocol.js';

const toolName = (call: ToolCall): string => `${call.server}.${call.tool}`;

const turnOver = (message: string, data?: Record<string, unknown>): ServerMessage => ({
  type: 'status',
  payload: { state: 'complete', message, ...(data ? { data } : {}) },
});

/**
 * The `status` that says the turn is over, for the events that end one: sent once the session
 * takes the next message, so a client may send it as soon as it reads this.
 */
export function turnEnd(event: TurnEvent): ServerMessage | undefined {
  if (event.type === 'final') return turnOver('answered', { answer: event.answer, steps: event.steps });
  if (event.type === 'cancelled') return turnOver('cancelled');
  if (event.type === 'error' || event.type === 'step-limit') return turnOver('failed');
  return undefined;
}

export const TURN_FAILED = turnOver('failed');

/** What the connections are sent for one event; nothing for events only a terminal's debug view shows. */
export function relayEvent(event: TurnEvent): ServerMessage[] {
  switch (event.type) {
    case 'assistant-delta':
      return [{ type: 'text', payload: { content: event.text } }];
    case 'tool-call': {
      const data = { id: event.id, arguments: event.call.arguments };
      const message = `calling ${toolName(event.call)}`;
      return [{ type: 'status', payload: { state: 'processing', tool: toolName(event.call), message, data } }];
    }
    case 'approval-request': {
      const { id, callId, call } = event;
      return [
        { type: 'approval', payload: { id, callId, server: call.server, tool: call.tool, arguments: call.arguments } },
      ];
    }
    case 'tool-progress': {
      const data = { id: event.id, ...event.progress };
      const message = event.progress.message ?? `${toolName(event.call)} is working`;
      return [{ type: 'status', payload: { state: 'processing', tool: toolName(event.call), message, data } }];
    }
    case 'tool-result': {
      const { isError, forModel, durationMs } = event.result;
      const data = { id: event.id, isError, result: forModel, durationMs };
      const message = isError ? `${toolName(event.call)} failed` : `${toolName(event.call)} done`;
      return [{ type: 'status', payload: { state: 'complete', tool: toolName(event.call), message, data } }];
    }
    case 'error':
      return [{ type: 'error', payload: { kind: event.kind, message: event.message } }];
    case 'step-limit': {
      const message = `no final answer after ${event.steps} steps`;
      return [{ type: 'error', payload: { kind: 'step-limit', message } }];
    }
    case 'notice':
      return event.warning ? [{ type: 'error', payload: { kind: 'warning', message: event.text } }] : [];
    case 'prompt-messages': {
      // Security: what a server's prompt puts in the model's mouth is shown before the model is sent it.
      const data = { server: event.server, prompt: event.prompt, messages: event.messages };
      return [
        { type: 'status', payload: { state: 'processing', message: `prompt ${event.server}:${event.prompt}`, data } },
      ];
    }
    case 'final':
    case 'cancelled':
    case 'thinking-delta':
    case 'thought':
    case 'model-reply':
    case 'tools-offered':
    case 'malformed-call':
      return [];
    default:
      return assertNever(event);
  }
}
