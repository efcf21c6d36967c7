/**
 * Tab completion of the word before the cursor: `/` completes commands and servers' prompts,
 * `@` completes resources. One candidate replaces the word (and a space follows); several extend
 * it to what they share. Pure: the candidates come from the caller.
 */
/** What completion reads and changes of the input line. */
interface Line {
  text: string;
  cursor: number;
  browsing: number | null;
}

/** The word the cursor ends, and where it starts. */
function wordBeforeCursor(state: Line): { word: string; start: number } {
  const before = state.text.slice(0, state.cursor);
  const start = before.search(/\S*$/);
  return { word: before.slice(start), start };
}

function sharedPrefix(words: string[]): string {
  let prefix = words[0] ?? '';
  for (const word of words.slice(1)) {
    while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

/** `candidates(word)`: what the word could become (each starting with the word). */
export function completeLine<T extends Line>(state: T, candidates: (word: string) => string[]): T {
  const { word, start } = wordBeforeCursor(state);
  if (word === '') return state;
  const matches = [...new Set(candidates(word))].filter((candidate) => candidate.startsWith(word));
  if (matches.length === 0) return state;
  const completed = matches.length === 1 ? `${matches[0]} ` : sharedPrefix(matches);
  if (completed.length <= word.length) return state;
  const text = state.text.slice(0, start) + completed + state.text.slice(state.cursor);
  return { ...state, text, cursor: start + completed.length, browsing: null };
}
