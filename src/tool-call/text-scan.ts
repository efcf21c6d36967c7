/**
 * Small linear-time helpers shared by the readers of template call formats: a memoised
 * forward search, name reading, and the value trimming those formats need. Policy: every
 * reader built on these does work proportional to the reply, whatever the reply holds,
 * so a search that found nothing is never repeated from a later position.
 */

/**
 * The reply with DeepSeek's full-width bar and its word separator in ASCII: the same
 * length, so every index found in it is an index into the reply.
 */
export function asciiTokens(text: string): string {
  return text.replace(/\uFF5C/g, '|').replace(/\u2581/g, '_');
}

/** Forward search for one token; searches from increasing positions cost O(n) in all. */
export class TokenFinder {
  private lastFrom = -1;
  private lastFound = -1;

  constructor(
    private readonly text: string,
    readonly token: string,
  ) {}

  /** The first occurrence at or after `from`, or -1. */
  next(from: number): number {
    // No occurrence lies between the last start and what it found, so that answer still holds.
    const stillValid = this.lastFrom >= 0 && from >= this.lastFrom && (this.lastFound < 0 || from <= this.lastFound);
    if (!stillValid) {
      this.lastFrom = from;
      this.lastFound = this.text.indexOf(this.token, from);
    }
    return this.lastFound;
  }
}

/** The earliest occurrence at or after `from` of any of the finders' tokens, or -1. */
export function firstOf(finders: TokenFinder[], from: number): number {
  const found = finders.map((finder) => finder.next(from)).filter((at) => at >= 0);
  return found.length > 0 ? Math.min(...found) : -1;
}

/** Every occurrence of `token`, in order, capped: a reply with more is a document, not calls. */
export function allOccurrences(text: string, token: string, cap = 500): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(token); at >= 0 && found.length < cap; at = text.indexOf(token, at + token.length)) {
    found.push(at);
  }
  return found;
}

const SPACE = new Set([' ', '\n', '\t', '\r']);

export function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && SPACE.has(text[i] ?? '')) i += 1;
  return i;
}

// A tool name as templates write it: `functions.get_weather`, `github__list_files`, `calc-v2`.
const NAME_CHAR = /[\w.:/-]/;
/** A tool name is short; the bound keeps every look-ahead cheap. */
export const MAX_NAME = 128;

/** The end of the tool name that starts at `at` (equal to `at` when there is none). */
export function readName(text: string, at: number): number {
  let end = at;
  while (end < text.length && end - at < MAX_NAME && NAME_CHAR.test(text[end] ?? '')) end += 1;
  return end;
}

/** Whether `name` is a whole, plausible tool name. */
export function isToolName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_NAME && readName(name, 0) === name.length && /\w/.test(name);
}

/**
 * A template's text value without the line breaks the template put around it
 * (`<parameter=x>\nvalue\n</parameter>`); inner and other whitespace is the model's own.
 */
export function trimTemplateNewlines(value: string): string {
  let start = 0;
  let end = value.length;
  if (value.startsWith('\r\n', start)) start += 2;
  else if (value[start] === '\n') start += 1;
  if (end > start && value.endsWith('\r\n') && end - 2 >= start) end -= 2;
  else if (end > start && value[end - 1] === '\n') end -= 1;
  return value.slice(start, end);
}

/** Strips the template namespace some formats put before a name (`functions.get_weather`). */
export function withoutNamespace(name: string): string {
  return name.startsWith('functions.') ? name.slice('functions.'.length) : name;
}

const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

/** A value wrapped in CDATA, as DeepSeek V4 sometimes writes a DSML parameter: its content. */
export function withoutCdata(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith(CDATA_OPEN) && trimmed.endsWith(CDATA_CLOSE)
    ? trimmed.slice(CDATA_OPEN.length, -CDATA_CLOSE.length)
    : value;
}

/** `span` extended over an `open` token right before it and a `close` right after (whitespace between allowed). */
export function extendOver(
  text: string,
  span: { start: number; end: number },
  open: string,
  close: string,
): { start: number; end: number } {
  // A short look-behind: searching the whole reply backwards for every call would be quadratic.
  const windowStart = Math.max(0, span.start - 64);
  const found = text.slice(windowStart, span.start).lastIndexOf(open);
  const before = found < 0 ? -1 : windowStart + found;
  const from = before >= 0 && skipSpace(text, before + open.length) === span.start ? before : span.start;
  const after = skipSpace(text, span.end);
  return { start: from, end: text.startsWith(close, after) ? after + close.length : span.end };
}
