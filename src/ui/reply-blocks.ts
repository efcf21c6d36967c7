/**
 * Where a streaming reply's markdown falls into finished blocks, which render alone as they do in
 * the whole: only where marked's lexer starts a top-level block after a blank line.
 */
import { Lexer } from 'marked';

/** A blank line, then a line at column 0 that is not a list's item (a list's next item never ends the list). */
const AFTER_BLANK = String.raw`\n[ \t]*\n(?![-+*][ \t]|\d{1,9}[.)][ \t])(\S[^\n]*)`;
const WHOLE_LINE_AFTER_BLANK = new RegExp(`${AFTER_BLANK}\n`);
const LAST_LINE_AFTER_BLANK = new RegExp(`${AFTER_BLANK}$`);

/**
 * A line's start with no letter yet: it may still turn out a list's item (`1.`), which may go on
 * with a list above, or be a marker that alone renders as nothing (`>`).
 */
const MARKER_SO_FAR = /^[\s\p{P}\p{S}\d]*$/u;

/** A block may start somewhere in `text`, unless one above goes on: else nothing is lexed. */
function mayStartBlock(text: string): boolean {
  if (WHOLE_LINE_AFTER_BLANK.test(text)) return true;
  const last = LAST_LINE_AFTER_BLANK.exec(text)?.[1];
  return last !== undefined && !MARKER_SO_FAR.test(last);
}

/** A line at column 0 starts at `at`, after a blank line, and enough of it has come to tell what it is. */
function startsBlock(text: string, at: number): boolean {
  if (text.charAt(at - 1) !== '\n' || !/\S/.test(text.charAt(at))) return false;
  if (text.slice(text.lastIndexOf('\n', at - 2) + 1, at).trim() !== '') return false;
  return text.indexOf('\n', at) >= 0 || !MARKER_SO_FAR.test(text.slice(at));
}

/**
 * The offset where the last finished block of `text` ends (0 when none has): the start of a
 * top-level block that follows a blank line, once its first line tells it from a list's item
 * (`1` may become `1. item`). The lexer, not a rule of our own, tells where a fence, a list or a
 * table ends, so a cut is never inside one.
 */
export function lastSafeSplit(text: string): number {
  if (!mayStartBlock(text)) return 0;
  let split = 0;
  let at = 0;
  let previous: string | undefined;
  for (const token of Lexer.lex(text)) {
    // The lexer reads a carriage return as a line break: past one, offsets would no longer match.
    if (!text.startsWith(token.raw, at)) break;
    if (token.type === 'space') {
      at += token.raw.length;
      continue;
    }
    // HTML is rendered as written, its blank lines too: what follows it is not a blank line apart.
    if (previous !== undefined && previous !== 'html' && startsBlock(text, at)) split = at;
    previous = token.type;
    at += token.raw.length;
  }
  return split;
}

/**
 * The part of the final answer not yet on screen, when `committed` went to the history block by
 * block and `streamed` followed it. The answer is what was streamed, normally; otherwise what of
 * it the screen shows already is left out, and a different answer is shown whole.
 */
export function unshownAnswer(answer: string, committed: string, streamed: string): string {
  if (answer.startsWith(committed)) return answer.slice(committed.length);
  // An answer that ends within what is committed (trimmed, or shorter): all of it is on screen.
  if (committed.startsWith(answer.trimEnd())) return '';
  // An answer that does not go on from the prose shown is streamed whole after it, on a line of its own.
  const whole = committed + streamed;
  if (whole.endsWith(answer)) return answer.slice(Math.max(0, committed.length - (whole.length - answer.length)));
  return answer;
}
