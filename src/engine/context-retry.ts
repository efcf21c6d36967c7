/**
 * A request Ollama refused as longer than the model's context (it is sent with `truncate: false`,
 * so nothing is dropped silently): the conversation is compacted and the request tried once more.
 * Policy: one retry a request; a second refusal, or a compaction that did not happen, is the
 * turn's error, with its hint.
 */
import { OllamaError } from '../shared/errors.js';
import { type CompactionOutcome, describeCompaction } from './compaction.js';
import type { TurnEvent } from '../vocabulary/types.js';

/** Compacts the conversation the turn's requests are built from. */
export type CompactNow = (signal?: AbortSignal) => Promise<CompactionOutcome>;

export async function* withRoomRetry<T>(
  attempt: () => AsyncGenerator<TurnEvent, T>,
  compact: CompactNow | undefined,
  signal?: AbortSignal,
): AsyncGenerator<TurnEvent, T> {
  try {
    return yield* attempt();
  } catch (error) {
    const refused = error instanceof OllamaError && error.kind === 'context-exceeded';
    if (!refused || !compact || signal?.aborted) throw error;
    const outcome = await compact(signal);
    signal?.throwIfAborted();
    if (outcome.type !== 'compacted') throw error;
    yield { type: 'notice', text: describeCompaction(outcome, 'refused') };
    return yield* attempt();
  }
}
