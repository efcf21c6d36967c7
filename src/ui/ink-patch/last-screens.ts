/**
 * What Ink keeps of the scrollback it has written (scripts/ink-caches.mjs puts this in the
 * bundle's Ink). Ink appends every line `<Static>` writes to one string, read only when the live
 * area is as tall as the terminal: then it clears the screen and the scrollback and writes that
 * string again above the frame. Kept whole, it grows with everything the chat ever showed; kept
 * to its last few screens, a long session holds a bounded tail, and that rare redraw gives back
 * the last screens rather than the whole session.
 */

/** Screens of scrollback kept for that redraw. */
export const KEPT_SCREENS = 10;
/** Rows of a screen when the terminal does not say (or says fewer). */
const MIN_ROWS = 24;

/** The last `KEPT_SCREENS` screens of `text` (its last lines), as a string of its own. */
export function lastScreens(text: string, rows: number | undefined): string {
  const kept = Math.max(rows ?? 0, MIN_ROWS) * KEPT_SCREENS;
  // Lines end with a newline; the last one's is not a line of its own.
  let start = text.length - 1;
  for (let line = 0; line < kept; line++) {
    const previous = text.lastIndexOf('\n', start - 1);
    if (previous < 0) return text;
    start = previous;
  }
  // Joined anew: a slice would keep the whole text it was cut from alive.
  return text
    .slice(start + 1)
    .split('\n')
    .join('\n');
}
