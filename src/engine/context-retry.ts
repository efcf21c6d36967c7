/**
 * A request Ollama refused as longer than the model's context (it is sent with `truncate: false`,
 * so nothing is dropped silently): room is made as before a turn (old tool results shortened
 * first, a summary only when that is not enough), judged against the smaller room the refusal
 * showed (request-window.ts), and the request tried once more. Policy: one retry a request; a
 * second refusal, or no room made, is the turn's error, with its hint.
 */
import { OllamaError } from '../shared/errors.js';
import { type RequestWindow, roomNotice } from './request-window.js';
import type { RoomMade } from './compaction.js';
import type { TurnEvent } from '../vocabulary/types.js';

/** Whether anything of the conversation was made shorter. */
const roomWasMade = (made: RoomMade | undefined): made is RoomMade =>
  made !== undefined && (made.shortened !== undefined || made.outcome?.type === 'compacted');

export async function* withRoomRetry<T>(
  attempt: () => AsyncGenerator<TurnEvent, T>,
  window: RequestWindow,
  signal?: AbortSignal,
): AsyncGenerator<TurnEvent, T> {
  try {
    return yield* attempt();
  } catch (error) {
    const refused = error instanceof OllamaError && error.kind === 'context-exceeded';
    if (!refused || signal?.aborted) throw error;
    const made = await window.afterRefusal(error, signal);
    signal?.throwIfAborted();
    if (!roomWasMade(made)) throw error;
    yield roomNotice(made);
    return yield* attempt();
  }
}
