/**
 * The messages of one request: the system prompt and the window of the conversation that fits the
 * room the system prompt, the tools and the reply's share leave in the context, as Ollama counts
 * tokens (token-calibration.ts). Policy: a window never leaves a message out for want of room
 * unsaid; when it would (a resumed session's first request, a longer tool list, a long tool result
 * earlier in the turn), room is made first (compaction.ts: old tool results shortened, then a
 * summary) and a line says so. `history.max_messages`, the user's own bound, is kept before each
 * turn (compaction.ts), not in the middle of one.
 * A refused prompt counts as Ollama counted it (at least the whole context), so the room judged
 * after a refusal is smaller than the one refused.
 */
import type { OllamaError } from '../shared/errors.js';
import { describeRoomMade, type RequestCause, type RoomMade } from './compaction.js';
import { type ContextAccount, historyTokens } from './context-account.js';
import { type Conversation, estimateTokens } from './conversation.js';
import { TokenCalibration } from './token-calibration.js';
import type { ChatMessage, TurnEvent } from '../vocabulary/types.js';

/** Makes room in the conversation the turn's requests are built from (the session's compactor). */
export interface RoomMaker {
  beforeRequest(cause: RequestCause, signal?: AbortSignal): Promise<RoomMade | undefined>;
}

/** The line a turn shows for room made before one of its requests. */
export function roomNotice(made: RoomMade): TurnEvent {
  return { type: 'notice', text: describeRoomMade(made) };
}

export class RequestWindow {
  /** The estimate of a prompt's tokens, corrected by Ollama's counts. */
  private readonly calibration = new TokenCalibration();
  /** The last request built: what Ollama's count or refusal is about. */
  private sent: { account: ContextAccount; messages: readonly ChatMessage[] } | undefined;

  constructor(
    private readonly conversation: Conversation,
    private readonly maker: RoomMaker | undefined,
  ) {}

  /** Tokens the history may take in a request whose system prompt and tools `account` counts. */
  private room(account: ContextAccount): number {
    return historyTokens({ ...account, numCtx: this.calibration.estimatedContext(account.numCtx) });
  }

  /** The request's messages; room made first, with its line, when the window would leave some out. */
  async *messages(
    account: ContextAccount,
    systemPrompt: string,
    signal?: AbortSignal,
  ): AsyncGenerator<TurnEvent, ChatMessage[]> {
    const room = this.room(account);
    if (this.maker && this.conversation.wouldCutForRoom(room)) {
      this.conversation.noteRoom(room, account.numCtx);
      const made = await this.maker.beforeRequest('fit', signal);
      signal?.throwIfAborted();
      if (made) yield roomNotice(made);
    }
    const messages = this.conversation.window(systemPrompt, room);
    this.sent = { account, messages };
    return messages;
  }

  /**
   * Ollama counted `counted` tokens for the last request's prompt: the next request (the next
   * turn's compaction too) is given the room that count leaves.
   */
  noteCount(counted: number | undefined): void {
    if (!this.sent) return;
    const { account, messages } = this.sent;
    const estimated = estimateTokens(messages.slice(1)) + account.systemTokens + account.toolTokens;
    this.calibration.note(estimated, counted);
    this.conversation.noteRoom(this.room(account), account.numCtx);
  }

  /**
   * Ollama refused the last request as longer than the context, so it took more than all of it:
   * room is made against what that count leaves. Undefined when there is no one to make it.
   */
  async afterRefusal(refusal: OllamaError, signal?: AbortSignal): Promise<RoomMade | undefined> {
    if (!this.maker || !this.sent) return undefined;
    this.noteCount(Math.max(refusal.promptTokens ?? 0, this.sent.account.numCtx + 1));
    return this.maker.beforeRequest('refused', signal);
  }
}
