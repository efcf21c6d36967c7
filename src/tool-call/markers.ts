/**
 * Finds what surrounds a call without being part of it: special tokens models leak into
 * content (`<|python_tag|>`, `[TOOL_CALLS]`, `<tool_call>`, `functools`, Command R7B's
 * `<|START_ACTION|>`…), prefixes that name the tool outside the JSON (Mistral's
 * `name[CALL_ID]id[ARGS]{…}`, `<function=name>{…}`, Functionary's `>>>name`) and ``` fences.
 * Policy: only text outside bracket spans counts, so a token inside an argument is data.
 */
import { BLOCK_OPENERS, CALL_TOKENS, END_TOKENS, OPENING_TOKENS } from './call-tokens.js';
import { bareRecipients, harmonyText } from './harmony.js';
import { type Span, spanAt } from './json-scan.js';

export interface Fence extends Span {
  lang: string;
  /** The opening ```lang and the closing ``` (absent when the reply was cut off). */
  open: Span;
  close?: Span;
}

export interface Decorations {
  /** Tokens and prefixes to leave out of the prose around calls. */
  markers: Span[];
  /** Where tokens that only ever introduce a call end (`<tool_call>`, `[TOOL_CALLS]`, `name[ARGS]`…). */
  introducerEnds: Set<number>;
  /** Span start → tool name given by a prefix before it. */
  names: Map<number, string>;
  /** Starts of spans named by a prefix that prose can imitate (a bare `name` line): real tools only. */
  weakNames: Set<number>;
  /** Starts of spans that are tokens themselves (`[TOOL_CALLS]`, `[ARGS]`). */
  tokenSpans: Set<number>;
  fences: Fence[];
}

const BRACKET_TOKENS = new Set(['[TOOL_CALLS]', '[ARGS]', '[CALL_ID]']);
const TOKEN_LENGTH_LIMIT = '[TOOL_CALLS]'.length;
// Functionary v3.2 names each call on a `>>>name` line; `>>>all` introduces text.
const FUNCTIONARY = '>>>';
const NAME_CHAR = /[\w.-]/;
const FUNCTION_TAG = '<function=';
/** Fence languages a call may be wrapped in; any other language is code to show. */
export const CALL_FENCES = new Set(['', 'json', 'json5', 'jsonc', 'tool_call', 'tool_code', 'tool', 'tool_calls']);
const FENCE = '```';
// A tool name in a prefix is short; the bound keeps the look-behind cheap.
const MAX_NAME = 128;

/** Occurrences of `token` that lie outside every span. */
function occurrences(text: string, token: string, spans: Span[]): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + token.length)) {
    if (!spanAt(spans, at)) found.push(at);
  }
  return found;
}

/** The start of the span that follows `from` after nothing but whitespace. */
function nextSpanStart(text: string, spans: Span[], from: number): number | undefined {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((spans[middle]?.start ?? 0) < from) low = middle + 1;
    else high = middle;
  }
  const next = spans[low];
  if (next === undefined) return undefined;
  // Stops at the first visible character, so long prose costs nothing extra.
  for (let at = from; at < next.start; at += 1) {
    if (!/\s/.test(text[at] ?? '')) return undefined;
  }
  return next.start;
}

function nameBefore(text: string, end: number): number {
  let start = end;
  while (start > 0 && end - start < MAX_NAME && NAME_CHAR.test(text[start - 1] ?? '')) start -= 1;
  return start;
}

/** Mistral's `[TOOL_CALLS]name{…}` (no `[ARGS]`): the name right after the token. */
function nameAfterToolCalls(text: string, spans: Span[], end: number, found: Decorations): number {
  const nameEnd = nameAfter(text, end);
  if (nameEnd === end || text[nameEnd] !== '{' || spanAt(spans, nameEnd)?.start !== nameEnd) return end;
  found.names.set(nameEnd, text.slice(end, nameEnd));
  return nameEnd;
}

/**
 * The name before `[ARGS]`: Mistral Small 3.2 writes `name[CALL_ID]id[ARGS]`, so when a
 * call id sits there, the name is before the `[CALL_ID]` token that ends at the id's start.
 */
function argsNameStart(text: string, argsAt: number, callIdEnds: Map<number, number>): number {
  const start = nameBefore(text, argsAt);
  const callIdStart = callIdEnds.get(start);
  return callIdStart === undefined ? start : nameBefore(text, callIdStart);
}

function bracketTokens(text: string, spans: Span[], found: Decorations): void {
  const callIdEnds = new Map<number, number>();
  for (const span of spans) {
    if (span.end - span.start > TOKEN_LENGTH_LIMIT) continue;
    const token = text.slice(span.start, span.end);
    if (!BRACKET_TOKENS.has(token)) continue;
    found.tokenSpans.add(span.start);
    if (token === '[CALL_ID]') {
      callIdEnds.set(span.end, span.start);
      continue;
    }
    found.introducerEnds.add(span.end);
    const start = token === '[ARGS]' ? argsNameStart(text, span.start, callIdEnds) : span.start;
    const end = token === '[TOOL_CALLS]' ? nameAfterToolCalls(text, spans, span.end, found) : span.end;
    found.markers.push({ start, end });
    const target = nextSpanStart(text, spans, span.end);
    if (start < span.start && target !== undefined) found.names.set(target, text.slice(start, nameAfter(text, start)));
  }
  // Phi's `functools[…]`: the word is a marker when a span follows it directly.
  for (const at of occurrences(text, 'functools[', spans)) {
    found.markers.push({ start: at, end: at + 'functools'.length });
    found.introducerEnds.add(at + 'functools'.length);
  }
}

/** The end of the name that starts at `start`. */
function nameAfter(text: string, start: number): number {
  let end = start;
  while (end < text.length && end - start < MAX_NAME && NAME_CHAR.test(text[end] ?? '')) end += 1;
  return end;
}

/** Functionary v3.2: `>>>name` then the JSON arguments; `>>>all` before plain text. */
function functionaryPrefixes(text: string, spans: Span[], found: Decorations): void {
  for (const at of occurrences(text, FUNCTIONARY, spans)) {
    const nameStart = at + FUNCTIONARY.length;
    const nameEnd = nameAfter(text, nameStart);
    if (nameEnd === nameStart) continue;
    const target = nextSpanStart(text, spans, nameEnd);
    const argumentsFollow = text
      .slice(nameEnd, nameEnd + MAX_NAME)
      .trimStart()
      .startsWith('{');
    if (text.slice(nameStart, nameEnd) === 'all') {
      found.markers.push({ start: at, end: nameEnd });
    } else if (argumentsFollow) {
      // An introducer even when the arguments never close: a reply cut off there was a call.
      found.markers.push({ start: at, end: nameEnd });
      found.introducerEnds.add(nameEnd);
      if (target !== undefined) found.names.set(target, text.slice(nameStart, nameEnd));
    }
  }
  // The first call may lack its `>>>` (the template put it in the prompt): a name alone on the reply's first line.
  const nameStart = text.length - text.trimStart().length;
  const nameEnd = nameAfter(text, nameStart);
  const target = nextSpanStart(text, spans, nameEnd);
  if (nameEnd > nameStart && text[nameEnd] === '\n' && target !== undefined && !found.names.has(target)) {
    found.markers.push({ start: nameStart, end: nameEnd });
    found.names.set(target, text.slice(nameStart, nameEnd));
    found.weakNames.add(target);
  }
}

/** gpt-oss with its tokens stripped: `commentary to=functions.NAME json{…}` names the span after it. */
function harmonyRecipients(text: string, spans: Span[], found: Decorations): void {
  for (const recipient of bareRecipients(text)) {
    if (spanAt(spans, recipient.start)) continue;
    found.markers.push({ start: recipient.start, end: recipient.end });
    found.introducerEnds.add(recipient.end);
    if (spanAt(spans, recipient.end)?.start === recipient.end) found.names.set(recipient.end, recipient.name);
  }
}

function functionTags(text: string, spans: Span[], found: Decorations): void {
  for (const at of occurrences(text, FUNCTION_TAG, spans)) {
    const nameStart = at + FUNCTION_TAG.length;
    const window = text.slice(nameStart, nameStart + MAX_NAME + 1);
    const close = window.indexOf('>');
    const name = close < 0 ? '' : window.slice(0, close);
    if (name === '' || ![...name].every((ch) => NAME_CHAR.test(ch))) continue;
    const end = nameStart + close + 1;
    found.markers.push({ start: at, end });
    found.introducerEnds.add(end);
    const target = nextSpanStart(text, spans, end);
    if (target !== undefined) found.names.set(target, name);
  }
}

function findFences(text: string, spans: Span[]): Fence[] {
  const fences: Fence[] = [];
  const ticks = occurrences(text, FENCE, spans);
  for (let index = 0; index < ticks.length; index += 2) {
    const start = ticks[index] ?? 0;
    let langEnd = start + FENCE.length;
    while (langEnd < text.length && /[\w+#.-]/.test(text[langEnd] ?? '')) langEnd += 1;
    const closeAt = ticks[index + 1];
    const close = closeAt === undefined ? undefined : { start: closeAt, end: closeAt + FENCE.length };
    const lang = text.slice(start + FENCE.length, langEnd).toLowerCase();
    fences.push({ start, end: close?.end ?? text.length, lang, open: { start, end: langEnd }, close });
  }
  return fences;
}

export function findDecorations(text: string, spans: Span[]): Decorations {
  const found: Decorations = {
    markers: [],
    introducerEnds: new Set(),
    names: new Map(),
    weakNames: new Set(),
    tokenSpans: new Set(),
    fences: [],
  };
  for (const token of [...CALL_TOKENS, ...END_TOKENS]) {
    for (const at of occurrences(text, token, spans)) {
      found.markers.push({ start: at, end: at + token.length });
      if (OPENING_TOKENS.has(token)) found.introducerEnds.add(at + token.length);
    }
  }
  bracketTokens(text, spans, found);
  functionTags(text, spans, found);
  functionaryPrefixes(text, spans, found);
  harmonyRecipients(text, spans, found);
  found.fences = findFences(text, spans);
  return found;
}

/** Whether the reply begins with a token that only ever introduces a call. */
export function opensWithCallMarker(text: string): boolean {
  const start = text.trimStart();
  return [...CALL_TOKENS, ...BRACKET_TOKENS, ...BLOCK_OPENERS, 'functools[', FUNCTION_TAG].some((token) =>
    start.startsWith(token),
  );
}

/** Removes end-of-turn tokens, harmony's message headers and answer tags from text shown to the user. */
export function cleanAnswer(text: string): string {
  let cleaned = harmonyText(text);
  for (const token of [...END_TOKENS, '<response>', '</response>']) cleaned = cleaned.split(token).join('');
  return cleaned.trim();
}
