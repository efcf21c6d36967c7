/**
 * `session/prompt`: one turn of the session, its events streamed to the editor as updates and
 * each approval put to the editor as `session/request_permission` (allow once, allow always,
 * reject); the editor's answer is the answer, and a request it cancels or fails denies the call.
 * The turn is saved after it ends, whatever the end.
 */
import {
  RequestError,
  type AgentContext,
  type PermissionOption,
  type RequestPermissionRequest,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import type { ApprovalDecision, ToolCall, TurnEvent } from '../vocabulary/types.js';
import type { ChatSession } from '../session/chat-session.js';
import { errorMessage } from '../shared/errors.js';
import { TurnTranscript } from '../state/turn-transcript.js';
import { displayName } from '../vocabulary/tool-naming.js';
import { endOf, messageChunk, toolKind, updatesFor, type TurnEnd } from './turn-updates.js';

const OPTIONS: readonly (PermissionOption & { optionId: ApprovalDecision })[] = [
  { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow this tool in this session', kind: 'allow_always' },
  { optionId: 'deny', name: 'Reject', kind: 'reject_once' },
];

function decisionOf(optionId: string): ApprovalDecision {
  return OPTIONS.find((option) => option.optionId === optionId)?.optionId ?? 'deny';
}

export interface PromptTurn {
  sessionId: string;
  chat: ChatSession;
  client: AgentContext;
  text: string;
  signal: AbortSignal;
  /** Lines the editor has not been shown yet (a server that failed to start), said before the turn. */
  warnings: readonly string[];
}

/** The turn's updates go out in order: each is sent before the next event is taken. */
export async function runPromptTurn(turn: PromptTurn): Promise<StopReason> {
  const { chat, client, sessionId, signal } = turn;
  const send = (update: SessionUpdate): Promise<void> => client.notify('session/update', { sessionId, update });
  const kindOf = (call: ToolCall): ReturnType<typeof toolKind> =>
    toolKind(chat.listTools().find((tool) => tool.server === call.server && tool.name === call.tool)?.annotations);
  const transcript = new TurnTranscript(turn.text);
  let end: TurnEnd | undefined;
  for (const line of turn.warnings) await send(messageChunk(`warning: ${line}\n\n`));
  for await (const event of chat.runTurn(turn.text, signal)) {
    transcript.note(event);
    // The turn waits for the answer: it is asked alongside, and the events go on meanwhile.
    if (event.type === 'approval-request') void askPermission(turn, event, kindOf(event.call));
    for (const update of updatesFor(event, kindOf)) await send(update);
    end ??= endOf(event);
  }
  await chat.saveTurn(transcript.items, transcript.answered).catch((error: unknown) => {
    chat.runtime.log.warn(`session ${sessionId} not saved: ${errorMessage(error)}`);
  });
  if (end === undefined) return 'cancelled';
  if ('failed' in end) {
    const { message, hint } = end.failed;
    throw new RequestError(-32603, hint ? `${message} ${hint}` : message, { message, hint });
  }
  return end.stopReason;
}

type ApprovalEvent = Extract<TurnEvent, { type: 'approval-request' }>;

async function askPermission(turn: PromptTurn, event: ApprovalEvent, kind: ReturnType<typeof toolKind>): Promise<void> {
  const { call } = event;
  const toolCall = {
    toolCallId: event.callId,
    title: displayName(call),
    kind,
    status: 'pending',
    rawInput: call.arguments,
  } as const;
  let decision: ApprovalDecision = 'deny';
  try {
    const params: RequestPermissionRequest = { sessionId: turn.sessionId, toolCall, options: [...OPTIONS] };
    const response = await turn.client.request('session/request_permission', params, {
      cancellationSignal: turn.signal,
    });
    if (response.outcome.outcome === 'selected') decision = decisionOf(response.outcome.optionId);
  } catch (error) {
    turn.chat.runtime.log.warn(`permission request for ${displayName(call)} failed: ${errorMessage(error)}`);
  }
  if (decision !== 'deny' && !turn.signal.aborted) {
    const update = { sessionUpdate: 'tool_call_update', toolCallId: event.callId, status: 'in_progress' } as const;
    await turn.client.notify('session/update', { sessionId: turn.sessionId, update }).catch(() => undefined);
  }
  // False once the turn has been cancelled: the call was refused with it.
  turn.chat.answer(event.id, decision);
}
