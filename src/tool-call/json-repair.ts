/**
 * Lenient JSON reading for what small models emit: strict `JSON.parse` first, then one
 * conservative repair pass (single-quoted strings, trailing commas, raw control
 * characters in strings, Python's True/False/None, raw backslashes). Policy: never guess
 * structure; unquoted keys or broken separators stay broken and the model is asked again.
 */

export type LooseParse = { ok: true; value: unknown } | { ok: false };

const PY_LITERALS: Record<string, string> = { True: 'true', False: 'false', None: 'null' };
// Escapes JSON accepts after a backslash; any other is kept as a literal backslash.
const JSON_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u']);
const CONTROL_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function tryParse(text: string): LooseParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // Syntax errors and stack exhaustion on hostile nesting both mean "not JSON".
    return { ok: false };
  }
}

export function parseJsonLoose(text: string): LooseParse {
  const strict = tryParse(text);
  if (strict.ok) return strict;
  const repaired = repairJson(text);
  return repaired === text ? strict : tryParse(repaired);
}

function escapeStringChar(ch: string, quote: string): string {
  if (ch === '"' && quote === "'") return '\\"';
  const control = CONTROL_ESCAPES[ch];
  if (control !== undefined) return control;
  if (ch < ' ') return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return ch;
}

const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Whether a backslash before the character at `at` is an escape JSON accepts (u needs four hex digits). */
function isJsonEscape(text: string, at: number): boolean {
  const next = text[at] ?? '';
  if (next === 'u') return HEX4.test(text.slice(at + 1, at + 5));
  return JSON_ESCAPES.has(next);
}

/**
 * Whether the string at `at` holds a backslash JSON cannot read (`C:\Users`): then the
 * model wrote raw text, not escapes, and every backslash in it is literal, so the `\n`
 * of `C:\Users\me\notes.txt` stays a backslash and an n.
 */
function hasInvalidEscape(text: string, at: number): boolean {
  const quote = text[at];
  for (let i = at + 1; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === quote) return false;
    if (ch !== '\\') continue;
    if (text[i + 1] !== quote && text[i + 1] !== "'" && !isJsonEscape(text, i + 1)) return true;
    i += 1;
  }
  return false;
}

/** One backslash sequence of a string, as JSON; returns how many characters it used. */
function copyEscape(text: string, at: number, out: string[], literal: boolean): number {
  const next = text[at + 1];
  if (next === undefined) return 1;
  if (next === "'") out.push("'");
  else if (next === '"') out.push('\\"');
  else if (next === '\\') out.push('\\\\');
  // A raw path keeps its backslash; so does any escape JSON would reject.
  else if (literal || !isJsonEscape(text, at + 1)) out.push(`\\\\${escapeStringChar(next, '"')}`);
  else out.push(`\\${next}`);
  return 2;
}

/** Copies the string at `at` as a valid JSON string into `out`; returns the index after it. */
function copyString(text: string, at: number, out: string[]): number {
  const quote = text[at] ?? '"';
  const literal = hasInvalidEscape(text, at);
  out.push('"');
  for (let i = at + 1; i < text.length; i += 1) {
    const ch = text[i] ?? '';
    if (ch === '\\') {
      i += copyEscape(text, i, out, literal) - 1;
    } else if (ch === quote) {
      out.push('"');
      return i + 1;
    } else {
      out.push(escapeStringChar(ch, quote));
    }
  }
  return text.length;
}

const isSpace = (ch: string): boolean => ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r';
const isWordChar = (ch: string): boolean => /[A-Za-z0-9_]/.test(ch);
// Characters the repair pass treats one by one; runs of anything else are copied whole.
const isSpecial = (ch: string): boolean => ch === '"' || ch === "'" || ch === ',' || isSpace(ch) || isWordChar(ch);

function readWhile(text: string, at: number, test: (ch: string) => boolean): number {
  let end = at;
  while (end < text.length && test(text[end] ?? '')) end += 1;
  return end;
}

/**
 * One streaming pass. A comma is held back, with the whitespace after it, until the next
 * token shows whether it is a trailing comma (dropped before `}` or `]`): O(1) per char.
 */
export function repairJson(text: string): string {
  const out: string[] = [];
  let heldComma = false;
  let heldSpace = '';
  const release = (next: string): void => {
    if (heldComma && next !== '}' && next !== ']') out.push(',');
    out.push(heldSpace);
    heldComma = false;
    heldSpace = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (isSpace(ch)) {
      const end = readWhile(text, i, isSpace);
      if (heldComma) heldSpace += text.slice(i, end);
      else out.push(text.slice(i, end));
      i = end;
      continue;
    }
    release(ch);
    if (ch === ',') {
      heldComma = true;
      i += 1;
    } else if (ch === '"' || ch === "'") {
      i = copyString(text, i, out);
    } else if (isWordChar(ch)) {
      const end = readWhile(text, i, isWordChar);
      const word = text.slice(i, end);
      out.push(PY_LITERALS[word] ?? word);
      i = end;
    } else {
      const end = Math.max(
        i + 1,
        readWhile(text, i, (next) => !isSpecial(next)),
      );
      out.push(text.slice(i, end));
      i = end;
    }
  }
  release('');
  return out.join('');
}
