/**
 * The conversation's memory and the window of it sent to the model: the last
 * `maxMessages` messages, cut only at the start of a user turn (so a tool call is
 * never separated from its result), then trimmed further to fit the context size.
 */
import type { ChatMessage } from './types.js';

/** Rough characters per token: close enough to keep a prompt under `num_ctx` without a tokenizer. */
const CHARS_PER_TOKEN = 4;
/** Share of the context kept free for the model's reply. */
const REPLY_RESERVE = 0.25;

export function estimateTokens(messages: ChatMessage[]): number {
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
function isTurnStart(message: ChatMessage): boolean {
  return message.role === 'user' && message.toolResult !== true;
}

export interface WindowLimits {
  maxMessages: number;
  /** Tokens available for history after the system prompt. */
  maxTokens: number;
}

/** Index where the window starts: the latest turn always stays, however long it is. */
export function windowStart(history: ChatMessage[], limits: WindowLimits): number {
  const starts = history.flatMap((message, index) => (isTurnStart(message) ? [index] : []));
  const lastStart = starts.at(-1) ?? 0;
  const fits = (start: number): boolean =>
    history.length - start <= limits.maxMessages && estimateTokens(history.slice(start)) <= limits.maxTokens;
  return starts.find((start) => start < lastStart && fits(start)) ?? lastStart;
}

export class Conversation {
  private messages: ChatMessage[] = [];

  constructor(private readonly maxMessages: number) {}

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
    return this.messages.length;
  }

  rollback(mark: number): void {
    this.messages.length = Math.min(mark, this.messages.length);
  }

  clear(): void {
    this.messages = [];
  }

  /** Forgets what no future window can include, so a long session's memory stays bounded. */
  compact(): void {
    const start = windowStart(this.messages, { maxMessages: this.maxMessages, maxTokens: Infinity });
    if (start > 0) this.messages = this.messages.slice(start);
  }

  /** The messages to send: the system prompt, then the window of history that fits in `maxTokens`. */
  window(systemPrompt: string, maxTokens: number): ChatMessage[] {
    const start = windowStart(this.messages, { maxMessages: this.maxMessages, maxTokens });
    return [{ role: 'system', content: systemPrompt }, ...this.messages.slice(start)];
  }

  /** The user's messages, oldest first (tool results fed back as user messages excluded). */
  userMessages(): string[] {
    return this.messages.filter(isTurnStart).map((message) => message.content);
  }
}
