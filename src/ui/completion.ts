/**
 * Tab completion of the word before the cursor: `/` completes commands and servers' prompts,
 * `@` completes resources, `key=` after a prompt its argument's values. One candidate replaces
 * the word (and a space follows); several extend it to what they share and are listed under the
 * line until the next key. Pure: the candidates come from the caller.
 */
import { parseArguments } from '../session/turn-input.js';

/** What completion reads and changes of the input line. */
interface Line {
  text: string;
  cursor: number;
  browsing: number | null;
  /** What the word could become, after a Tab that found several. */
  candidates?: string[] | undefined;
}

/** The word the cursor ends, and where it starts; `whole`: everything before the cursor is the word. */
function wordBeforeCursor(state: Line, whole: boolean): { word: string; start: number } {
  const before = state.text.slice(0, state.cursor);
  const start = whole ? 0 : before.search(/\S*$/);
  return { word: before.slice(start), start };
}

function sharedPrefix(words: string[]): string {
  let prefix = words[0] ?? '';
  for (const word of words.slice(1)) {
    while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

/**
 * `candidates(word)`: what the word could become (each starting with the word). `whole`: the line
 * up to the cursor is one value (an answer to a question, which may hold spaces).
 */
export function completeLine<T extends Line>(state: T, candidates: (word: string) => string[], whole = false): T {
  const { word, start } = wordBeforeCursor(state, whole);
  if (word === '') return state;
  const matches = [...new Set(candidates(word))].filter((candidate) => candidate.startsWith(word));
  if (matches.length === 0) return state;
  const several = matches.length > 1 ? matches : undefined;
  const completed = several ? sharedPrefix(matches) : `${matches[0]} `;
  if (completed.length <= word.length) return { ...state, candidates: several };
  const text = state.text.slice(0, start) + completed + state.text.slice(state.cursor);
  return { ...state, text, cursor: start + completed.length, browsing: null, candidates: several };
}

/** A prompt argument's value being typed: what `completion/complete` is asked. */
export interface ArgumentAtCursor {
  /** As typed after the slash: `server:name` or a unique name. */
  prompt: string;
  argument: { name: string; value: string };
  /** The arguments typed before it. */
  typed: Record<string, string>;
  /** What goes before a suggested value in the completed word (`key=`). */
  prefix: string;
}

/** `/prompt … key=val` with the cursor after `val`: the argument and the prompt's other arguments. */
const PROMPT_ARGUMENT = /^\/(\S+)\s+((?:.*\s)?)([^\s=]+)=(\S*)$/;

export function argumentAtCursor(state: Line): ArgumentAtCursor | undefined {
  const match = PROMPT_ARGUMENT.exec(state.text.slice(0, state.cursor).trimStart());
  if (!match) return undefined;
  const [, prompt = '', before = '', name = '', value = ''] = match;
  const typed = parseArguments(before);
  return { prompt, argument: { name, value }, typed: typeof typed === 'string' ? {} : typed, prefix: `${name}=` };
}

/** A value as the line writes it: quoted when it holds a space. */
export function argumentValue(value: string): string {
  return /\s/.test(value) ? `"${value}"` : value;
}
