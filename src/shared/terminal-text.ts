/**
 * Text made inert for a terminal. The rule: outside text (a model's reply, a server's
 * result or stderr, a config value) travels raw through the program and is made inert
 * once, by the printer that writes it: `cli/output.ts` for the commands, the REPL's
 * components and markdown renderer for the chat, `/export` for a file people `cat`. Nothing
 * upstream of a printer calls these.
 */
import { stripVTControlCharacters } from 'node:util';

/** Characters of a one-line summary (a tool result on its tool line). */
const MAX_LINE_CHARS = 160;

/**
 * Characters a terminal draws as nothing that still change what is shown: the bidi controls
 * (embeddings, overrides, isolates, the LRM/RLM/ALM marks), which reorder the text around them
 * (`notes\u202Eexe.txt` reads as "notestxt.exe"), and the zero-width characters, which hide
 * text or split a word that is checked by eye. A regex class body, shared by the views below.
 */
const INVISIBLE_CLASS = '\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff';
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'g');
/** What JSON.stringify leaves raw and a terminal must not receive: DEL, C1, U+2028/9 and the invisibles. */
const JSON_UNSAFE = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029${INVISIBLE_CLASS}]`, 'g');

/** `\u202E` as six visible characters (uppercase, as Unicode writes U+202E): the text says what it holds. */
function escapeInvisible(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Cuts a one-line view; never inside an escape, which would read as a different, meaningless one. */
function cutLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, maxChars - 1).replace(/\\u[0-9A-F]{0,3}$/, '')}…`;
}

// Security: the one-line view. Escape sequences go first, so a cut can never leave half of one;
// then C0 controls, DEL and C1 controls (left after the sequences are gone) become spaces, and
// bidi controls and zero-width characters are shown as escapes, so nothing reorders or hides text.
export function sanitizeForDisplay(text: string, maxChars = MAX_LINE_CHARS): string {
  const oneLine = stripVTControlCharacters(text)
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    // Before whitespace is folded: U+FEFF counts as whitespace there and would vanish unseen.
    .replace(INVISIBLE, escapeInvisible)
    .replace(/\s+/g, ' ')
    .trim();
  return cutLine(oneLine, maxChars);
}

// Security: the multi-line view, for whole results, answers and notices. Escape sequences and
// control characters go; line breaks and tabs stay. A carriage return goes too, so no text can
// move the cursor back and hide what came before it. Bidi controls and zero-width characters are
// shown as escapes. Each character is handled on its own, so it is safe on streamed chunks.
export function sanitizeForTerminal(text: string): string {
  return stripVTControlCharacters(text)
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
    .replace(INVISIBLE, escapeInvisible);
}

/** What a terminal acts on, and the multi-line view drops: C0 controls but line breaks and tabs, DEL, C1. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

// Security: the view that hides nothing, for text a person must read whole before it goes on (a
// server's prompt messages, given to the model). Every control character, the ESC of an escape
// sequence included, and every bidi control and zero-width character is written as a visible escape
// (`\u001B[8m`), neither obeyed nor dropped: removing a sequence removes what is inside it too, and
// a terminal draws some text (concealed, in a title) that the model reads but a person never sees.
export function showControls(text: string): string {
  return text.replace(CONTROL, escapeInvisible).replace(INVISIBLE, escapeInvisible);
}

/**
 * JSON for stdout. JSON.stringify leaves DEL, the C1 controls (U+0080–U+009F, which some
 * terminals obey), U+2028/U+2029, the bidi controls and the zero-width characters raw; JSON
 * escapes for them keep the parsed value exactly the same, so a script still gets the exact text.
 * `indent` 0: one line (a JSON Lines stream).
 */
export function jsonForTerminal(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(
    JSON_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
