/**
 * The first way to make room, before any summary: the oldest tool results of earlier turns cut to
 * their start, each with a marker saying how much was left out, until the history fits. Policy:
 * a result stays where it is, right after its call (only its text is shortened); the results of
 * the latest turn are never cut, since the model is working from them; a result already about
 * as short as its start is left alone.
 */
import { estimateTokens, isTurnStart } from './conversation.js';
import type { ChatMessage } from '../vocabulary/types.js';

/** Characters of a shortened result kept: enough to say what it was and how it began. */
export const KEPT_CHARS = 400;

export interface Shortening {
  /** The history with the results shortened, every message in its place. */
  history: ChatMessage[];
  /** Results shortened. */
  results: number;
  /** The history's estimated tokens before and after. */
  before: number;
  after: number;
}

function isToolResult(message: ChatMessage): boolean {
  return message.role === 'tool' || (message.role === 'user' && message.toolResult === true);
}

/** A result's start and the marker that says it was cut, for the model as for whoever reads the session. */
export function shortenedText(content: string): string {
  const left = content.length - KEPT_CHARS;
  return `${content.slice(0, KEPT_CHARS)}\n[… shortened: ${left} of ${content.length} characters left out to fit the model's context]`;
}

/**
 * `history` with its oldest tool results shortened, one at a time, until `fits` says it does (or
 * none is left to shorten); undefined when none was.
 */
export function shortenResults(
  history: readonly ChatMessage[],
  fits: (history: readonly ChatMessage[]) => boolean,
): Shortening | undefined {
  const latestTurn = history.findLastIndex(isTurnStart);
  const shortened = [...history];
  let results = 0;
  for (let index = 0; index < latestTurn && !fits(shortened); index++) {
    const message = shortened[index] as ChatMessage;
    if (!isToolResult(message)) continue;
    const text = shortenedText(message.content);
    if (text.length >= message.content.length) continue;
    shortened[index] = { ...message, content: text };
    results++;
  }
  if (results === 0) return undefined;
  return { history: shortened, results, before: estimateTokens(history), after: estimateTokens(shortened) };
}
