/**
 * Compaction: room made in the conversation when it would not fit the model's context, so a long
 * conversation keeps what it learned instead of dropping it off the window. Before a turn that
 * would not fit (or would fill `history.compact_at` of its room), before a request of a turn that
 * would not fit the room its system prompt and tools leave, and when Ollama refuses a prompt as
 * too long, the oldest tool results are shortened first (result-shortening.ts); only when that is
 * not enough are the oldest whole turns (and any earlier summary) replaced by one summary the
 * model writes, as on `/compact`. Policy: the latest turns that fit a share of the room stay
 * verbatim; a failed or cancelled summary leaves the conversation as it was before the summary.
 */
import { assertNever, errorMessage } from '../shared/errors.js';
import { type Conversation, estimateTokens, isTurnStart, promptBudget } from './conversation.js';
import type { ContextSize } from './context-window.js';
import { shortenResults } from './result-shortening.js';
import { requestSummary } from './summary-request.js';
import { counted } from '../shared/plural.js';
import type { ChatMessage, LlmClient } from '../vocabulary/types.js';

/**
 * Share of the history's room the turns kept verbatim may take: enough for the last exchange or
 * two that a follow-up refers to, while leaving most of the room free after compacting.
 */
const KEEP_SHARE = 0.3;
/** Says, to the model and to whoever reads a saved session, what the message is. */
export const SUMMARY_HEADING = 'Summary of the earlier turns of this conversation, which it replaces:';

export interface KeepLimits {
  tokens: number;
  messages: number;
}

export interface CompactionPlan {
  /** The head of the history the summary replaces: the earlier summary, if any, and the oldest whole turns. */
  replaced: ChatMessage[];
  /** Turns the user started among them. */
  turns: number;
}

/**
 * The head of `history` to replace: everything before the earliest turn start from which the rest
 * fits `keep`, the latest turn always kept and at least one turn replaced; undefined when there is
 * only one turn. Cutting at turn starts keeps each tool call with its result, and the turns kept
 * keep the results of their own calls: that is what recent turns refer to. A result from a replaced
 * turn is not kept beside the summary: it could not stand there without its call and the question
 * that led to it, so the summary is asked to carry its ids, paths and numbers instead.
 */
export function planCompaction(history: readonly ChatMessage[], keep: KeepLimits): CompactionPlan | undefined {
  const starts = history.flatMap((message, index) => (isTurnStart(message) ? [index] : []));
  const last = starts.at(-1);
  if (last === undefined || starts.length < 2) return undefined;
  const fits = (start: number): boolean =>
    history.length - start <= keep.messages && estimateTokens(history.slice(start)) <= keep.tokens;
  const keepFrom = starts.slice(1).find(fits) ?? last;
  return { replaced: history.slice(0, keepFrom), turns: starts.filter((start) => start < keepFrom).length };
}

/** The message that stands for the replaced turns. */
export function summaryMessage(summary: string): ChatMessage {
  return { role: 'system', content: `${SUMMARY_HEADING}\n${summary}` };
}

export type CompactionOutcome =
  | { type: 'compacted'; turns: number; before: number; after: number }
  | { type: 'nothing'; reason: string }
  | { type: 'failed'; reason: string }
  | { type: 'cancelled' };

export interface CompactorOptions {
  llm: LlmClient;
  conversation: Conversation;
  /** The model's context, read each time: Ollama may say the model has another. */
  context: ContextSize;
  /** `history.max_messages`, when the user bounds the window. */
  maxMessages?: number;
  /** `history.compact_at`: the share of the history's room that, once filled, compacts before a turn. */
  compactAt?: number;
}

/** Why a compaction happened without `/compact`: the screen says so. */
export type CompactionCause = 'fit' | 'compact-at' | 'refused';

/** Why a request of a turn needs room made: its window would leave messages out, or Ollama refused it. */
export type RequestCause = Extract<CompactionCause, 'fit' | 'refused'>;

/** Tool results shortened to make room, and the history's estimated tokens before and after. */
export interface ResultsShortened {
  results: number;
  before: number;
  after: number;
}

/** What was done before a turn to make room: results shortened, a summary written, or both. */
export type RoomMade =
  | { cause: CompactionCause; shortened: ResultsShortened; outcome?: CompactionOutcome }
  | { cause: CompactionCause; shortened?: undefined; outcome: CompactionOutcome };

export class Compactor {
  /** A compaction under way: a turn waits for it, a second one is refused. */
  private running: Promise<CompactionOutcome> | undefined;

  constructor(private readonly options: CompactorOptions) {
    options.conversation.holdForSummary();
  }

  /** `/compact`: the oldest turns summarised now, however full the context is; `onStart` hears how many. */
  compact(
    signal?: AbortSignal,
    onStart?: (turns: number) => void,
    added: ChatMessage[] = [],
  ): Promise<CompactionOutcome> {
    if (this.running) return Promise.resolve({ type: 'nothing', reason: 'a compaction is already under way' });
    const running = this.run(signal, onStart, added).finally(() => {
      this.running = undefined;
    });
    this.running = running;
    return running;
  }

  /**
   * Before a turn that adds `added`: waits for a `/compact` under way, then makes room when the
   * window would leave out messages (they no longer fit the context, or `history.max_messages`),
   * or the history would pass `history.compact_at`: tool results shortened first, then a summary if
   * that was not enough. Undefined when nothing was due (or there was nothing to shorten or replace).
   */
  beforeTurn(added: ChatMessage[], signal?: AbortSignal): Promise<RoomMade | undefined> {
    return this.makeRoom(added, signal);
  }

  /**
   * Before a request of the turn under way, whose messages are all in the conversation: the same,
   * against the room last noted (`Conversation.noteRoom`); `cause` says why the request needs it.
   */
  beforeRequest(cause: RequestCause, signal?: AbortSignal): Promise<RoomMade | undefined> {
    return this.makeRoom([], signal, cause);
  }

  private async makeRoom(
    added: ChatMessage[],
    signal?: AbortSignal,
    why?: RequestCause,
  ): Promise<RoomMade | undefined> {
    await this.running;
    const history = (): ChatMessage[] => [...this.options.conversation.all(), ...added];
    const due = this.due(history());
    if (due === undefined) return undefined;
    const cause = why ?? due;
    const shortened = this.shorten(added);
    if (shortened && this.due(history()) === undefined) return { cause, shortened };
    // The new message counts as the latest turn: every earlier one may be folded to make room for it.
    if (!planCompaction(history(), this.keepLimits())) return shortened ? { cause, shortened } : undefined;
    const outcome = await this.compact(signal, undefined, added);
    return shortened ? { cause, shortened, outcome } : { cause, outcome };
  }

  /** Why `history` would need room made before it is sent; undefined when it fits. */
  private due(history: readonly ChatMessage[]): CompactionCause | undefined {
    const { compactAt, conversation } = this.options;
    const budget = this.budget();
    if (conversation.wouldDropFrom(history, budget)) return 'fit';
    return compactAt !== undefined && estimateTokens(history) > compactAt * budget ? 'compact-at' : undefined;
  }

  /** Shortens the oldest tool results until the history with `added` needs no more room, or none is left. */
  private shorten(added: ChatMessage[]): ResultsShortened | undefined {
    const { conversation } = this.options;
    const current = [...conversation.all()];
    const found = shortenResults([...current, ...added], (history) => this.due(history) === undefined);
    if (!found || !conversation.replaceHead(current, ...found.history.slice(0, current.length))) return undefined;
    return { results: found.results, before: found.before, after: found.after };
  }

  /** The history's room: as at the last request (in the context as it is now), or the whole prompt's before the first. */
  private budget(): number {
    const { conversation, context } = this.options;
    return conversation.roomAt(context.tokens) ?? promptBudget(context.tokens);
  }

  private keepLimits(): KeepLimits {
    const { maxMessages } = this.options;
    return {
      tokens: KEEP_SHARE * this.budget(),
      messages: maxMessages === undefined ? Infinity : Math.max(2, Math.floor(maxMessages / 2)),
    };
  }

  /** `added`: the turn about to be sent, kept whole; what is replaced is always from before it. */
  private async run(
    signal: AbortSignal | undefined,
    onStart: ((turns: number) => void) | undefined,
    added: ChatMessage[],
  ): Promise<CompactionOutcome> {
    const { conversation, llm, context } = this.options;
    const plan = planCompaction([...conversation.all(), ...added], this.keepLimits());
    if (!plan)
      return {
        type: 'nothing',
        reason: conversation.length === 0 ? 'nothing has been said yet' : 'there is only the latest turn',
      };
    onStart?.(plan.turns);
    let summary: ChatMessage;
    try {
      summary = summaryMessage(await requestSummary(llm, plan.replaced, context.tokens, signal));
    } catch (error) {
      if (signal?.aborted) return { type: 'cancelled' };
      // One line: the chat goes on as it was, this only says why it was not shortened.
      return { type: 'failed', reason: (errorMessage(error).split('\n')[0] ?? '').replace(/\.$/, '') };
    }
    const before = estimateTokens(plan.replaced);
    const after = estimateTokens([summary]);
    if (after >= before)
      return { type: 'nothing', reason: 'the summary was no shorter than the turns it would replace' };
    if (!conversation.replaceHead(plan.replaced, summary))
      return { type: 'failed', reason: 'the conversation changed while the summary was written' };
    return { type: 'compacted', turns: plan.turns, before, after };
  }
}

const count = (n: number): string => n.toLocaleString('en-US');

export const earlierTurns = (turns: number): string => `${turns} earlier turn${turns === 1 ? '' : 's'}`;

const WHY: Record<CompactionCause, string> = {
  fit: " so that the conversation fits the model's context (/compact does this by hand)",
  'compact-at': ' before this turn, as history.compact_at asks',
  refused: " because Ollama refused the request as longer than the model's context (/compact does this by hand)",
};

const WHY_SHORTENED: Record<CompactionCause, string> = {
  fit: " so that the conversation fits the model's context",
  'compact-at': ' before this turn, as history.compact_at asks',
  refused: " because Ollama refused the request as longer than the model's context",
};

/** The line the screen shows for the room made before a turn. */
export function describeRoomMade(made: RoomMade): string {
  const { cause, shortened, outcome } = made;
  if (!shortened) return describeCompaction(outcome, cause);
  const results = counted(shortened.results, 'earlier tool result');
  const start = shortened.results === 1 ? 'its start' : 'their start';
  const line = `Shortened ${results} to ${start} (about ${count(shortened.before)} → ${count(shortened.after)} tokens)`;
  return outcome === undefined ? `${line}${WHY_SHORTENED[cause]}.` : `${line}. ${describeCompaction(outcome, cause)}`;
}

/** The line the screen shows; `cause`: why it happened when `/compact` did not ask. */
export function describeCompaction(outcome: CompactionOutcome, cause?: CompactionCause): string {
  switch (outcome.type) {
    case 'compacted': {
      const turns = earlierTurns(outcome.turns);
      const why = cause === undefined ? '' : WHY[cause];
      return `Compacted ${turns} into a summary (about ${count(outcome.before)} → ${count(outcome.after)} tokens)${why}.`;
    }
    case 'nothing':
      return `Nothing to compact: ${outcome.reason}.`;
    case 'failed':
      return `The conversation was not compacted: ${outcome.reason}. It is kept as it was.`;
    case 'cancelled':
      return 'Compaction cancelled; the conversation is kept as it was.';
    default:
      return assertNever(outcome);
  }
}
