/**
 * How much of a resumed session's screen is drawn again: the last turns that fit a budget of
 * characters, from the start of a turn (the last turn whole, however long). The rest is kept in
 * the session, not drawn: the chat and the session keeper split the screen here alike, so what
 * is not drawn is still saved.
 */
import type { SavedItem } from './session-file.js';

/**
 * A screen or two. Ink lays out and styles every character of a frame, so drawing the whole of a
 * long session again would keep the chat from starting for seconds.
 */
export const RESUMED_CHARS_SHOWN = 2_000;

/** What an item puts on screen, roughly: a tool is one line, whatever its result. */
function screenChars(item: SavedItem): number {
  return item.type === 'tool' ? 120 : item.text.length;
}

/** The index of the first item drawn on resuming. */
export function shownFrom(screen: readonly SavedItem[]): number {
  let start = screen.length;
  for (let chars = 0; start > 0; start--) {
    chars += screenChars(screen[start - 1] as SavedItem);
    if (chars > RESUMED_CHARS_SHOWN && start < screen.length) break;
  }
  const turn = screen.findIndex((item, index) => index >= start && item.type === 'user');
  if (turn >= 0) return turn;
  // The last turn alone is over the budget: it is drawn whole all the same, from its question.
  const lastTurn = screen.findLastIndex((item) => item.type === 'user');
  return lastTurn >= 0 ? Math.min(lastTurn, start) : start;
}
