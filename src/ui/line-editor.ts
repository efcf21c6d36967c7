/**
 * The input line as a pure state machine: editing keys, ↑/↓ through earlier inputs, Ctrl+R
 * searching them, Tab completion, and multi-line text: pasted lines kept whole, and a newline
 * typed with Alt+Enter, Ctrl+J or `\` then Enter. The Prompt component only renders it.
 */
import { completeLine } from './completion.js';

export interface LineState {
  text: string;
  cursor: number;
  /** Earlier inputs, oldest first. */
  recall: string[];
  /** Position while browsing `recall`; null when editing a fresh line. */
  browsing: number | null;
  /** The fresh line, kept while browsing `recall`. */
  draft: string;
  /** What Tab found for the word before the cursor, when it found several: shown until the next key. */
  candidates?: string[] | undefined;
  /** Set while Ctrl+R searches `recall`; the line's text is then the match shown. */
  search?: LineSearch | undefined;
}

/** A reverse incremental search through `recall`, as in a shell. */
export interface LineSearch {
  query: string;
  /** Index in `recall` of the match shown; null before anything matched. */
  match: number | null;
  /** The last change found nothing: the match shown is the one before it. */
  failed: boolean;
  /** The line before the search, given back by Esc. */
  original: { text: string; cursor: number };
}

/** The subset of Ink's `Key` the editor reads. */
export interface EditorKey {
  return?: boolean;
  backspace?: boolean;
  delete?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  tab?: boolean;
  escape?: boolean;
}

export const emptyLine: LineState = { text: '', cursor: 0, recall: [], browsing: null, draft: '' };

/** Inputs kept for ↑/↓ (earlier runs' among them: the input history keeps as many). */
const MAX_RECALL = 500;

const at = (state: LineState, text: string, cursor: number): LineState => ({ ...state, text, cursor, browsing: null });

function insert(state: LineState, chunk: string): LineState {
  // Terminals send pasted newlines as carriage returns.
  const clean = chunk.replace(/\r\n?/g, '\n');
  return at(
    state,
    state.text.slice(0, state.cursor) + clean + state.text.slice(state.cursor),
    state.cursor + clean.length,
  );
}

function browse(state: LineState, direction: -1 | 1): LineState {
  const { recall } = state;
  if (recall.length === 0) return state;
  const from = state.browsing ?? recall.length;
  const to = Math.min(recall.length, Math.max(0, from + direction));
  if (to === from) return state;
  const draft = state.browsing === null ? state.text : state.draft;
  const text = to === recall.length ? draft : (recall[to] ?? '');
  return { ...state, text, cursor: text.length, browsing: to === recall.length ? null : to, draft };
}

function control(state: LineState, input: string): LineState {
  const { text, cursor } = state;
  switch (input) {
    case 'a':
      return { ...state, cursor: 0 };
    case 'e':
      return { ...state, cursor: text.length };
    case 'u':
      return at(state, text.slice(cursor), 0);
    case 'k':
      return at(state, text.slice(0, cursor), cursor);
    case 'w': {
      const start = text.slice(0, cursor).replace(/\S+\s*$/, '').length;
      return at(state, text.slice(0, start) + text.slice(cursor), start);
    }
    default:
      return state;
  }
}

/** The newest entry at or before `from` that contains `query`, or undefined. */
function findOlder(recall: readonly string[], query: string, from: number): number | undefined {
  for (let index = Math.min(from, recall.length - 1); index >= 0; index--) {
    if (recall[index]?.includes(query)) return index;
  }
  return undefined;
}

/** Shows the newest match of `query` at or before `from`; the last match stays, marked failed, when there is none. */
function searchFor(state: LineState, search: LineSearch, query: string, from: number): LineState {
  const found = query === '' ? undefined : findOlder(state.recall, query, from);
  if (found === undefined) return { ...state, search: { ...search, query, failed: query !== '' } };
  const text = state.recall[found] ?? '';
  return { ...state, text, cursor: text.indexOf(query), search: { ...search, query, match: found, failed: false } };
}

/** Ctrl+R at the line: the search starts, empty, over the line as it is. */
function startSearch(state: LineState): LineState {
  return {
    ...state,
    search: { query: '', match: null, failed: false, original: { text: state.text, cursor: state.cursor } },
  };
}

/** Leaves the search: with the match on the line (`take`), or with the line as it was before. */
export function endSearch(state: LineState, take: boolean): LineState {
  const { search } = state;
  if (!search) return state;
  if (take && search.match !== null) return { ...state, search: undefined, browsing: null, cursor: state.text.length };
  return { ...state, ...search.original, search: undefined };
}

/** What leads the line while searching, and the keys under it. */
export function searchPrompt(search: LineSearch): { label: string; hint: string } {
  const label = `search ${JSON.stringify(search.query)}`;
  if (search.failed) return { label, hint: `no earlier input has ${JSON.stringify(search.query)} · Esc leaves` };
  return { label, hint: 'type to search earlier inputs · Ctrl+R older · Enter takes it · Esc leaves' };
}

/**
 * A key while searching: typing narrows, Backspace widens, Ctrl+R goes to an older match, Enter
 * takes the match onto the line (to edit or send), Esc, Ctrl+C or Ctrl+G leave it as it was. Any
 * other key takes the match and then does what it does on the line.
 */
function searchKey(state: LineState, search: LineSearch, input: string, key: EditorKey): EditResult {
  const from = search.match ?? state.recall.length - 1;
  if (key.escape || (key.ctrl && (input === 'c' || input === 'g'))) return { state: endSearch(state, false) };
  if (key.return) return { state: endSearch(state, true) };
  if (key.ctrl && input === 'r') return { state: searchFor(state, search, search.query, from - 1) };
  if (key.backspace || key.delete)
    return { state: searchFor(state, search, search.query.slice(0, -1), state.recall.length - 1) };
  if (key.ctrl && input === 'd') return { state };
  const typed = input.length > 0 && !key.ctrl && !key.meta && !key.tab && !/[\r\n]/.test(input.slice(0, -1));
  // Fast typing can bring the last keys and Enter in one chunk: they narrow the search, then Enter takes it.
  if (typed && input.endsWith('\r')) {
    const narrowed = searchFor(state, search, search.query + input.slice(0, -1), from);
    return { state: endSearch(narrowed, true) };
  }
  if (typed && !input.endsWith('\n')) return { state: searchFor(state, search, search.query + input, from) };
  return editLine(endSearch(state, true), input, key);
}

export interface EditResult {
  state: LineState;
  /** Set when Enter submitted a non-empty line. */
  submitted?: string;
}

/** `complete`: Tab's completions of the word before the cursor (none by default). */
export function editLine(
  shown: LineState,
  input: string,
  key: EditorKey,
  complete: (word: string) => string[] = () => [],
): EditResult {
  if (shown.search) return searchKey(shown, shown.search, input, key);
  if (key.tab) return { state: completeLine(shown, complete) };
  // Tab's candidates are shown until the next key, whatever it does.
  const state = shown.candidates ? { ...shown, candidates: undefined } : shown;
  const { text, cursor } = state;
  if (key.ctrl && input === 'r') return { state: startSearch(state) };
  if (input.length > 1 && !key.ctrl && !key.meta) {
    // Fast typing can deliver a line and its Enter in one chunk: one trailing CR submits.
    // A chunk with line breaks inside is a paste, kept whole for the user to send.
    const typedLine = input.endsWith('\r') && !input.slice(0, -1).includes('\r');
    if (!typedLine) return { state: insert(state, input) };
    return editLine(insert(state, input.slice(0, -1)), '\r', { return: true });
  }
  if (key.return) {
    // Alt+Enter, or Enter after a backslash, breaks the line instead of sending it (Ctrl+J, a bare line feed, is text).
    if (key.meta) return { state: insert(state, '\n') };
    if (text.slice(0, cursor).endsWith('\\'))
      return { state: at(state, `${text.slice(0, cursor - 1)}\n${text.slice(cursor)}`, cursor) };
    if (!text.trim()) return { state: at(state, '', 0) };
    const recall = [...state.recall.filter((entry) => entry !== text), text].slice(-MAX_RECALL);
    return { state: { ...emptyLine, recall }, submitted: text };
  }
  // Most terminals send Backspace as DEL, which Ink reports as `delete`.
  if (key.backspace || key.delete) {
    return { state: cursor === 0 ? state : at(state, text.slice(0, cursor - 1) + text.slice(cursor), cursor - 1) };
  }
  if (key.leftArrow) return { state: { ...state, cursor: Math.max(0, cursor - 1) } };
  if (key.rightArrow) return { state: { ...state, cursor: Math.min(text.length, cursor + 1) } };
  if (key.upArrow) return { state: browse(state, -1) };
  if (key.downArrow) return { state: browse(state, 1) };
  if (key.ctrl) return { state: control(state, input) };
  if (key.meta || key.escape || input === '') return { state };
  return { state: insert(state, input) };
}
