/**
 * A single-pass bracket matcher for finding JSON-like spans in free text: strings are
 * honoured inside brackets (with escapes), prose quotes outside brackets are ignored.
 * Policy: linear time on any input (hostile replies included); mismatched closers drop
 * the openers they skip, so one stray bracket in prose cannot hide a later object.
 */

export interface Span {
  start: number;
  /** Exclusive. */
  end: number;
}

export interface BracketScan {
  /** Outermost matched `{…}` / `[…]` spans, in text order, disjoint. */
  spans: Span[];
  /** Openers still unclosed when the text ended, in text order: a cut-off reply. */
  unclosed: number[];
}

const CLOSER_OF: Record<string, string> = { '{': '}', '[': ']' };
// A quote opens a string only where a JSON or Python value may start, so apostrophes
// in words (`it's`) and quotes after prose never swallow the text that follows.
const VALUE_START_AFTER = new Set(['{', '[', ',', ':', '(', '=']);

interface ScanState {
  stack: number[];
  openCount: { '{': number; '[': number };
  /** Outermost pairs so far: sorted by start and disjoint. */
  outermost: Span[];
}

/**
 * Records a matched pair. Pairs arrive in closing order, so every kept pair that starts
 * after this one lies inside it: dropping those keeps the list outermost, sorted and
 * disjoint in amortised O(1), with no sort at the end.
 */
function keepOutermost(state: ScanState, pair: Span): void {
  const kept = state.outermost;
  while (kept.length > 0 && (kept[kept.length - 1]?.start ?? -1) > pair.start) kept.pop();
  kept.push(pair);
}

function closeBracket(text: string, state: ScanState, closer: string, at: number): void {
  const opener = closer === '}' ? '{' : '[';
  // A closer with no opener of its kind on the stack is prose: O(1), no stack walk.
  if (state.openCount[opener] === 0) return;
  for (let start = state.stack.pop(); start !== undefined; start = state.stack.pop()) {
    const kind = text[start] === '{' ? '{' : '[';
    state.openCount[kind] -= 1;
    if (CLOSER_OF[kind] === closer) {
      keepOutermost(state, { start, end: at + 1 });
      return;
    }
  }
}

/** Index just past the string that starts at `at`, or the text's end when unterminated. */
export function skipString(text: string, at: number): number {
  const quote = text[at];
  for (let i = at + 1; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\\') i += 1;
    else if (ch === quote) return i + 1;
    // Python single-quoted strings end at the line; a stray apostrophe must not run on.
    else if (ch === '\n' && quote === "'") return i;
  }
  return text.length;
}

export function scanBrackets(text: string): BracketScan {
  const state: ScanState = { stack: [], openCount: { '{': 0, '[': 0 }, outermost: [] };
  let previous = '';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] ?? '';
    if ((ch === '"' || ch === "'") && state.stack.length > 0 && VALUE_START_AFTER.has(previous)) {
      i = skipString(text, i) - 1;
      previous = ch;
      continue;
    }
    if (ch === '{' || ch === '[') {
      state.stack.push(i);
      state.openCount[ch] += 1;
    } else if (ch === '}' || ch === ']') {
      closeBracket(text, state, ch, i);
    }
    if (ch !== ' ' && ch !== '\n' && ch !== '\t' && ch !== '\r') previous = ch;
  }
  return { spans: state.outermost, unclosed: state.stack };
}

/** The span containing `position`, if any (spans sorted and disjoint). */
export function spanAt<T extends Span>(spans: T[], position: number): T | undefined {
  let low = 0;
  let high = spans.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const span = spans[middle];
    if (span === undefined) return undefined;
    if (position < span.start) high = middle - 1;
    else if (position >= span.end) low = middle + 1;
    else return span;
  }
  return undefined;
}
