/**
 * The input line as a pure state machine: editing keys, ↑/↓ through earlier inputs,
 * Tab completion, and pasted multi-line text kept whole. The Prompt component only renders it.
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

/** Inputs kept for ↑/↓. */
const MAX_RECALL = 200;

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

export interface EditResult {
  state: LineState;
  /** Set when Enter submitted a non-empty line. */
  submitted?: string;
}

/** `complete`: Tab's completions of the word before the cursor (none by default). */
export function editLine(
  state: LineState,
  input: string,
  key: EditorKey,
  complete: (word: string) => string[] = () => [],
): EditResult {
  const { text, cursor } = state;
  if (key.tab) return { state: completeLine(state, complete) };
  if (input.length > 1 && !key.ctrl && !key.meta) {
    // Fast typing can deliver a line and its Enter in one chunk: one trailing CR submits.
    // A chunk with line breaks inside is a paste, kept whole for the user to send.
    const typedLine = input.endsWith('\r') && !input.slice(0, -1).includes('\r');
    if (!typedLine) return { state: insert(state, input) };
    return editLine(insert(state, input.slice(0, -1)), '\r', { return: true });
  }
  if (key.return) {
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
