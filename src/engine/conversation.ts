/**
 * The conversation's memory and the window of it sent to the model: as much as fits the context
 * size (and `history.max_messages`, when the user bounds it), cut only at the start of a user
 * turn (so a tool call is never separated from its result).
 * A summary of earlier turns (compaction.ts), when there is one, heads the history as a
 * system message and goes with every window, ahead of the turns that fit.
 */
import type { ChatMessage } from '../vocabulary/types.js';

/** Rough characters per token: close enough to keep a prompt under `num_ctx` without a tokenizer. */
const CHARS_PER_TOKEN = 4;
/** Share of the context kept free for the model's reply. */
const REPLY_RESERVE = 0.25;

export function estimateTokens(messages: readonly ChatMessage[]): number {
  return Math.ceil(messages.reduce((sum, message) => sum + message.content.length + 8, 0) / CHARS_PER_TOKEN);
}

/** The same estimate for text that is not a message: tool definitions, a catalogue's lines. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Tokens of the context left for the prompt once the reply's share is kept free. */
export function promptBudget(numCtx: number): number {
  return Math.floor(numCtx * (1 - REPLY_RESERVE));
}

/** True for a message where a window may start: a message the user typed. */
export function isTurnStart(message: ChatMessage): boolean {
  return message.role === 'user' && message.toolResult !== true;
}

export interface WindowLimits {
  maxMessages: number;
  /** Tokens available for history after the system prompt. */
  maxTokens: number;
}

/** Index where the window starts: the latest turn always stays, however long it is. */
export function windowStart(history: readonly ChatMessage[], limits: WindowLimits): number {
  const starts = history.flatMap((message, index) => (isTurnStart(message) ? [index] : []));
  const lastStart = starts.at(-1) ?? 0;
  const fits = (start: number): boolean =>
    history.length - start <= limits.maxMessages && estimateTokens(history.slice(start)) <= limits.maxTokens;
  return starts.find((start) => start < lastStart && fits(start)) ?? lastStart;
}

/** The summary of earlier turns heads the history as its only system message (the prompt is never kept). */
function splitSummary(history: readonly ChatMessage[]): { summary: ChatMessage[]; turns: readonly ChatMessage[] } {
  return history[0]?.role === 'system'
    ? { summary: [history[0]], turns: history.slice(1) }
    : { summary: [], turns: history };
}

export class Conversation {
  private messages: ChatMessage[] = [];
  /** How many windows' worth of messages are remembered; see `holdForSummary`. */
  private reach = 1;
  /** The tokens the history could take at the last request: the next request's room, most likely. */
  private budget: number | undefined;
  /** The context that room was taken from, when the request said. */
  private budgetContext: number | undefined;
  /**
   * Messages taken off the head since the start (summarised, forgotten, cleared), so that a mark
   * stays at its place among the latest messages when room is made during a turn.
   */
  private headShift = 0;

  /** `maxMessages`: the user's bound on the window, if any. */
  constructor(private readonly maxMessages = Infinity) {}

  get length(): number {
    return this.messages.length;
  }

  all(): readonly ChatMessage[] {
    return this.messages;
  }

  add(...messages: ChatMessage[]): void {
    this.messages.push(...messages);
  }

  /** Returns a restore point; `rollback` drops everything added after it (a failed or cancelled turn). */
  mark(): number {
    return this.headShift + this.messages.length;
  }

  rollback(mark: number): void {
    this.messages.length = Math.max(0, Math.min(mark - this.headShift, this.messages.length));
  }

  clear(): void {
    this.headShift += this.messages.length;
    this.messages = [];
  }

  /**
   * With compaction, turns that have left the window are summarised before the next turn rather
   * than forgotten after this one: twice the window is remembered, so they are still there to
   * summarise (and memory stays bounded even if summaries keep failing).
   */
  holdForSummary(): void {
    this.reach = 2;
  }

  /** Forgets what no future window can include, so a long session's memory stays bounded. */
  forgetUnreachable(): void {
    const { summary, turns } = splitSummary(this.messages);
    const maxTokens = (this.budget ?? Infinity) * this.reach;
    const start = windowStart(turns, { maxMessages: this.maxMessages * this.reach, maxTokens });
    if (start === 0) return;
    this.messages = [...summary, ...turns.slice(start)];
    this.headShift += start;
  }

  /** The messages to send: the system prompt, the summary, then the window of history that fits in `maxTokens`. */
  window(systemPrompt: string, maxTokens: number): ChatMessage[] {
    this.budget = maxTokens;
    this.budgetContext = undefined;
    const { summary, turns } = splitSummary(this.messages);
    return [{ role: 'system', content: systemPrompt }, ...summary, ...turns.slice(this.turnsStart(maxTokens))];
  }

  /** The room the history really had at the last request (of a context of `context` tokens), once Ollama's count of it was known. */
  noteRoom(maxTokens: number, context?: number): void {
    this.budget = maxTokens;
    this.budgetContext = context;
  }

  /**
   * The room the history would have in a context of `context` tokens: the last request's, grown or
   * shrunk by the change of the context since (Ollama may have said the model has another);
   * undefined before any request.
   */
  roomAt(context: number): number | undefined {
    if (this.budget === undefined || this.budgetContext === undefined) return this.budget;
    return this.budget + promptBudget(context) - promptBudget(this.budgetContext);
  }

  /** Whether a window of `maxTokens` would leave out earlier messages of `history` (this one, changed or added to). */
  wouldDropFrom(history: readonly ChatMessage[], maxTokens: number): boolean {
    return this.turnsStart(maxTokens, history) > 0;
  }

  /** Whether a window of `maxTokens` would leave out earlier messages for want of room, whatever `history.max_messages` says. */
  wouldCutForRoom(maxTokens: number): boolean {
    return this.turnsStart(maxTokens, this.messages, Infinity) > 0;
  }

  /**
   * Puts `by` (a summary, or the same messages shortened) in place of `replaced`, the head of the
   * history; false when the head is no longer those very messages (the history changed meanwhile).
   */
  replaceHead(replaced: readonly ChatMessage[], ...by: ChatMessage[]): boolean {
    if (replaced.length === 0 || replaced.some((message, index) => this.messages[index] !== message)) return false;
    this.messages = [...by, ...this.messages.slice(replaced.length)];
    this.headShift += replaced.length - by.length;
    return true;
  }

  /** Where the window of `history` starts among the turns after its summary. */
  private turnsStart(
    maxTokens: number,
    history: readonly ChatMessage[] = this.messages,
    maxMessages = this.maxMessages,
  ): number {
    const { summary, turns } = splitSummary(history);
    const limits = { maxMessages, maxTokens: maxTokens - estimateTokens(summary) };
    return windowStart(turns, limits);
  }

  /** The user's messages, oldest first (tool results fed back as user messages excluded). */
  userMessages(): string[] {
    return this.messages.filter(isTurnStart).map((message) => message.content);
  }
}
