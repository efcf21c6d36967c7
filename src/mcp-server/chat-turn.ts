/**
 * One turn of the `chat` tool: the session's events told to the caller as progress, each call that
 * needs approval put to the caller, and the turn's end summed up as `ask --json` sums it up.
 */
import type { ChatSession } from '../session/chat-session.js';
import type { ToolCallRecord, ToolProgress, TurnEvent } from '../vocabulary/types.js';
import { displayName } from '../vocabulary/tool-naming.js';
import { formatProgress } from '../present/tool-progress.js';
import { TurnTranscript } from '../state/turn-transcript.js';
import type { CallerApproval } from './caller-approval.js';

export interface Caller {
  signal: AbortSignal;
  progress: (progress: ToolProgress) => void;
  approve: CallerApproval;
}

export interface TurnEnd {
  answer: string;
  toolCalls: ToolCallRecord[];
  /** Why the turn gave no answer; undefined when it answered. */
  error?: string;
}

/** A line for the caller about what the turn is doing, when the event begins something new. */
function progressLine(event: TurnEvent, previous: TurnEvent['type'] | undefined): string | undefined {
  switch (event.type) {
    case 'tool-call':
      return `calling ${displayName(event.call)}`;
    case 'tool-progress':
      return `${displayName(event.call)} ${formatProgress(event.progress)}`;
    case 'tool-result':
      return `${displayName(event.call)} ${event.result.isError ? 'failed' : 'done'}`;
    case 'thinking-delta':
      return previous === event.type ? undefined : 'thinking';
    case 'assistant-delta':
      return previous === event.type ? undefined : 'writing the answer';
    default:
      return undefined;
  }
}

function endOf(event: TurnEvent): TurnEnd | undefined {
  switch (event.type) {
    case 'final':
      return { answer: event.answer, toolCalls: event.toolCalls };
    case 'step-limit':
      return { answer: '', toolCalls: event.toolCalls, error: `no final answer after ${event.steps} steps` };
    case 'error':
      return { answer: '', toolCalls: [], error: event.hint ? `${event.message} (${event.hint})` : event.message };
    case 'cancelled':
      return { answer: '', toolCalls: [], error: 'the turn was cancelled' };
    default:
      return undefined;
  }
}

export async function runChatTurn(
  session: ChatSession,
  prompt: string,
  caller: Caller,
): Promise<{ end: TurnEnd; transcript: TurnTranscript }> {
  const transcript = new TurnTranscript(prompt);
  let end: TurnEnd | undefined;
  let previous: TurnEvent['type'] | undefined;
  let told = 0;
  for await (const event of session.runTurn(prompt, caller.signal)) {
    // The turn waits for this answer; the caller's cancel ends the question with the turn.
    if (event.type === 'approval-request') session.answer(event.id, await caller.approve(event.call));
    const message = progressLine(event, previous);
    if (message !== undefined) caller.progress({ progress: ++told, message });
    previous = event.type;
    end ??= endOf(event);
    transcript.note(event);
  }
  return { end: end ?? { answer: '', toolCalls: [], error: 'the turn was cancelled' }, transcript };
}
