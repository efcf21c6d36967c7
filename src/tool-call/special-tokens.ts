/**
 * Reads the token-delimited call sections of DeepSeek and Kimi K2:
 * - DeepSeek R1/V3: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` and a ```json fence;
 * - DeepSeek V3.1: `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>`;
 * - Kimi K2: `<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`;
 * - Step-3 / Step-3.5: `<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="NAME">` with
 *   `<steptml:parameter name="…">` values (read by ./invoke-calls.ts),
 * each optionally inside its section tokens. The ASCII-bar spellings (`<|tool▁sep|>`,
 * `<|tool_sep|>`) are the same tokens. Policy: a call whose end token is missing still
 * counts when its JSON is complete; one that runs off the end of the reply is cut off.
 */
import { blockOf, type Block, type Read, unfinished, unreadable } from './block.js';
import { parseJsonLoose } from './json-repair.js';
import { readStepInvoke } from './invoke-calls.js';
import { allOccurrences, asciiTokens, isToolName, skipSpace, TokenFinder, withoutNamespace } from './text-scan.js';

const CALL_BEGIN = '<|tool_call_begin|>';
const CALL_END = '<|tool_call_end|>';
const SEPARATOR = '<|tool_sep|>';
const ARGUMENTS = '<|tool_call_argument_begin|>';
const SECTION_BEGIN = ['<|tool_calls_begin|>', '<|tool_calls_section_begin|>'];
const SECTION_END = ['<|tool_calls_end|>', '<|tool_calls_section_end|>'];
const FENCE = '```';

/** Arguments as written: a JSON object, possibly in a ```json fence (DeepSeek V3). */
function readArguments(raw: string): unknown {
  let body = raw.trim();
  if (body.startsWith(FENCE)) {
    const firstLine = body.indexOf('\n');
    body = firstLine < 0 ? '' : body.slice(firstLine + 1);
    const close = body.lastIndexOf(FENCE);
    if (close >= 0) body = body.slice(0, close);
    body = body.trim();
  }
  if (body === '') return {};
  const parsed = parseJsonLoose(body);
  return parsed.ok ? parsed.value : undefined;
}

/** Name and arguments of one call's body; `ascii` is the same body with ASCII tokens. */
function readBody(raw: string, ascii: string): { name: string; args: unknown } | undefined {
  const argumentsAt = ascii.indexOf(ARGUMENTS);
  if (argumentsAt >= 0) {
    // Kimi: `functions.NAME:INDEX`, the index being the call's id.
    const head = raw.slice(0, argumentsAt).trim().replace(/:\d+$/, '');
    return { name: withoutNamespace(head), args: readArguments(raw.slice(argumentsAt + ARGUMENTS.length)) };
  }
  const separatorAt = ascii.indexOf(SEPARATOR);
  if (separatorAt < 0) return undefined;
  const left = raw.slice(0, separatorAt).trim();
  const right = raw.slice(separatorAt + SEPARATOR.length);
  if (left !== 'function' && left !== '') return { name: withoutNamespace(left), args: readArguments(right) };
  // R1/V3: the call type, then the name on the rest of the line, then the fenced arguments.
  const trimmed = right.replace(/^[ \t]+/, '');
  const lineEnd = trimmed.search(/[\n`{]/);
  const name = (lineEnd < 0 ? trimmed : trimmed.slice(0, lineEnd)).trim();
  return { name: withoutNamespace(name), args: readArguments(lineEnd < 0 ? '' : trimmed.slice(lineEnd)) };
}

/** An unclosed body without the tokens that follow it (`…}<｜end▁of▁sentence｜>`). */
function openBody(raw: string): string {
  const lastBrace = raw.lastIndexOf('}');
  if (lastBrace < 0) return raw;
  return raw
    .slice(lastBrace + 1)
    .trimStart()
    .startsWith('<')
    ? raw.slice(0, lastBrace + 1)
    : raw;
}

/** `closed`: the end token was there; `atEnd`: without one, the reply ended inside the call. */
function readCall(raw: string, ascii: string, closed: boolean, atEnd: boolean): Read {
  const step = readStepInvoke(raw, ascii, SEPARATOR);
  if (step) return step;
  const body = readBody(closed ? raw : openBody(raw), closed ? ascii : openBody(ascii));
  const complete = body !== undefined && body.args !== undefined && isToolName(body.name);
  if (complete) return { ok: true, call: { name: body.name, args: body.args } };
  return !closed && atEnd ? unfinished : unreadable;
}

/** Extends a run of calls over the section tokens around it (whitespace between allowed). */
function withSection(ascii: string, start: number, end: number): { start: number; end: number } {
  let from = start;
  // A short look-behind: searching the whole reply backwards for every run would be quadratic.
  const windowStart = Math.max(0, start - 256);
  const window = ascii.slice(windowStart, start);
  for (const token of SECTION_BEGIN) {
    const found = window.lastIndexOf(token);
    const at = found < 0 ? -1 : windowStart + found;
    if (at >= 0 && skipSpace(ascii, at + token.length) === start) from = Math.min(from, at);
  }
  let to = end;
  const after = skipSpace(ascii, end);
  for (const token of SECTION_END) if (ascii.startsWith(token, after)) to = after + token.length;
  return { start: from, end: to };
}

/** Where an unclosed call's body stops: the next call, the end of its section, or the reply's end. */
function openEnd(ascii: string, from: number, nextBegin: number): number {
  let end = nextBegin;
  for (const token of SECTION_END) {
    const at = ascii.indexOf(token, from);
    if (at >= 0 && at < end) end = at;
  }
  return end;
}

export function findTokenCalls(text: string): Block[] {
  const ascii = asciiTokens(text);
  const begins = allOccurrences(ascii, CALL_BEGIN);
  if (begins.length === 0) return [];
  const ends = new TokenFinder(ascii, CALL_END);
  const blocks: Block[] = [];
  let run: { start: number; end: number; reads: Read[] } | undefined;
  const flush = (): void => {
    if (!run) return;
    const span = withSection(ascii, run.start, run.end);
    blocks.push(blockOf(span.start, span.end, run.reads));
    run = undefined;
  };
  begins.forEach((begin, index) => {
    const bodyStart = begin + CALL_BEGIN.length;
    const nextBegin = begins[index + 1] ?? text.length;
    const endAt = ends.next(bodyStart);
    const closed = endAt >= 0 && endAt < nextBegin;
    // Only the last unclosed call can search to the end; earlier ones stop at the next call.
    const bodyEnd = closed ? endAt : index === begins.length - 1 ? openEnd(ascii, bodyStart, nextBegin) : nextBegin;
    const raw = text.slice(bodyStart, bodyEnd);
    const read = readCall(raw, ascii.slice(bodyStart, bodyEnd), closed, bodyEnd === text.length);
    const end = closed ? endAt + CALL_END.length : bodyEnd;
    if (run && skipSpace(ascii, run.end) !== begin) flush();
    if (!run) run = { start: begin, end, reads: [] };
    run.end = end;
    run.reads.push(read);
  });
  flush();
  return blocks;
}
