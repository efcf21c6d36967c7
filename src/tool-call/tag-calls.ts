/**
 * Reads the two tag formats whose argument values are raw text, not JSON:
 * - GLM 4.5–5: `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>`, also
 *   with Hunyuan's `<tool_sep>` after the name, or (poolside Laguna) a JSON object instead of the pairs;
 * - Qwen3-Coder: `<tool_call><function=NAME><parameter=k>\nv\n</parameter></function></tool_call>`,
 *   also leaked without the `<tool_call>` its template opens with.
 * Values are text the template never escapes (`a < b && c`), so they are cut at their
 * closing tags, not parsed as XML, and typed later by the tool's schema. Policy: a call
 * only counts once the format's own structure follows the opening tag; one left open at
 * the end of the reply is cut off.
 */
import { blockOf, type Block, type Read, unfinished, unreadable } from './block.js';
import { isRecord } from '../shared/is-record.js';
import { parseJsonLoose } from './json-repair.js';
import {
  allOccurrences,
  extendOver,
  firstOf,
  isToolName,
  MAX_NAME,
  readName,
  skipSpace,
  TokenFinder,
  trimTemplateNewlines,
  withoutNamespace,
} from './text-scan.js';

const TOOL_CALL = '<tool_call>';
const TOOL_CALL_END = '</tool_call>';
const TOOL_SEP = '<tool_sep>';
const ARG_KEY = '<arg_key>';
const ARG_KEY_END = '</arg_key>';
const ARG_VALUE = '<arg_value>';
const ARG_VALUE_END = '</arg_value>';
const FUNCTION = '<function=';
const FUNCTION_END = '</function>';
const PARAMETER = '<parameter=';
const PARAMETER_END = '</parameter>';

/** Arguments read so far, by a reader that stops at `pos` (or failed: `read`). */
interface Progress {
  pos: number;
  args: [string, string][];
  failed?: Read;
}

function done(name: string, args: [string, string][]): Read {
  return {
    ok: true,
    call: { name: withoutNamespace(name), args: Object.fromEntries(args), textKeys: args.map(([key]) => key) },
  };
}

/** A failure at `pos`: cut off when the reply ended there, else unreadable. */
const failAt = (text: string, pos: number): Read => (pos >= text.length ? unfinished : unreadable);

class GlmReader {
  private readonly keyEnds: TokenFinder;
  private readonly valueEnds: TokenFinder;
  private readonly keyStarts: TokenFinder;
  private readonly callEnds: TokenFinder;
  constructor(private readonly text: string) {
    this.keyEnds = new TokenFinder(text, ARG_KEY_END);
    this.valueEnds = new TokenFinder(text, ARG_VALUE_END);
    this.keyStarts = new TokenFinder(text, ARG_KEY);
    this.callEnds = new TokenFinder(text, TOOL_CALL_END);
  }

  /** Where a value ends: its closing tag, or, when the model left that out, the next key or the call's end. */
  private valueEnd(from: number): number {
    return firstOf([this.valueEnds, this.keyStarts, this.callEnds], from);
  }

  /** One `<arg_key>…</arg_key><arg_value>…</arg_value>` pair at `pos`. */
  pair(pos: number): Progress {
    const { text } = this;
    const keyEnd = this.keyEnds.next(pos);
    if (keyEnd < 0) return { pos, args: [], failed: unfinished };
    const key = text.slice(pos + ARG_KEY.length, keyEnd).trim();
    const valueAt = skipSpace(text, keyEnd + ARG_KEY_END.length);
    if (!isToolName(key) || !text.startsWith(ARG_VALUE, valueAt))
      return { pos, args: [], failed: failAt(text, valueAt) };
    const valueStart = valueAt + ARG_VALUE.length;
    const valueEnd = this.valueEnd(valueStart);
    if (valueEnd < 0) return { pos, args: [], failed: unfinished };
    const value = trimTemplateNewlines(text.slice(valueStart, valueEnd));
    const closed = text.startsWith(ARG_VALUE_END, valueEnd);
    return { pos: valueEnd + (closed ? ARG_VALUE_END.length : 0), args: [[key, value]] };
  }

  /** The call whose name ends at `pos`; `end` is where its block ends. */
  call(name: string, from: number): { read: Read; end: number } {
    const args: [string, string][] = [];
    let pos = from;
    for (;;) {
      pos = skipSpace(this.text, pos);
      if (this.text.startsWith(TOOL_CALL_END, pos)) return { read: done(name, args), end: pos + TOOL_CALL_END.length };
      if (!this.text.startsWith(ARG_KEY, pos)) return { read: failAt(this.text, pos), end: this.text.length };
      const next = this.pair(pos);
      if (next.failed) return { read: next.failed, end: this.text.length };
      args.push(...next.args);
      pos = next.pos;
    }
  }

  /** Laguna's `NAME\n{…}</tool_call>`: the arguments as one JSON object; `close` is its `</tool_call>`. */
  jsonCall(name: string, from: number, close: number): { read: Read; end: number } {
    const parsed = parseJsonLoose(this.text.slice(from, close).trim());
    const read: Read =
      parsed.ok && isRecord(parsed.value)
        ? { ok: true, call: { name: withoutNamespace(name), args: parsed.value } }
        : unreadable;
    return { read, end: close + TOOL_CALL_END.length };
  }
}

/** The first token of a GLM call's body: Hunyuan puts `<tool_sep>` between the name and the pairs. */
function bodyStart(text: string, nameEnd: number): number {
  const at = skipSpace(text, nameEnd);
  return text.startsWith(TOOL_SEP, at) ? skipSpace(text, at + TOOL_SEP.length) : at;
}

/** GLM: `<tool_call>` then a bare name, then `<arg_key>` pairs, a JSON object or `</tool_call>`. */
export function findGlmCalls(text: string): Block[] {
  if (!text.includes(ARG_KEY) && !text.includes(TOOL_CALL_END)) return [];
  const reader = new GlmReader(text);
  const closes = new TokenFinder(text, TOOL_CALL_END);
  const blocks: Block[] = [];
  let floor = 0;
  for (const at of allOccurrences(text, TOOL_CALL)) {
    if (at < floor) continue;
    const nameStart = skipSpace(text, at + TOOL_CALL.length);
    const nameEnd = readName(text, nameStart);
    const after = bodyStart(text, nameEnd);
    if (nameEnd === nameStart) continue;
    const name = text.slice(nameStart, nameEnd);
    const close = text[after] === '{' ? closes.next(after) : -1;
    const framed = text.startsWith(ARG_KEY, after) || text.startsWith(TOOL_CALL_END, after);
    if (!framed && close < 0) continue;
    const { read, end } = framed ? reader.call(name, after) : reader.jsonCall(name, after, close);
    blocks.push(blockOf(at, end, [read]));
    floor = end;
  }
  return blocks;
}

class QwenReader {
  private readonly stops: TokenFinder[];
  constructor(private readonly text: string) {
    this.stops = [PARAMETER_END, PARAMETER, FUNCTION_END].map((token) => new TokenFinder(text, token));
  }

  /** Where a parameter's value ends: its closing tag, or the next parameter or the function's end. */
  private valueEnd(from: number): number {
    return firstOf(this.stops, from);
  }

  parameter(pos: number): Progress {
    const { text } = this;
    const keyStart = pos + PARAMETER.length;
    const keyEnd = text.indexOf('>', keyStart);
    const key = keyEnd < 0 ? '' : text.slice(keyStart, keyEnd).trim();
    if (keyEnd < 0 || keyEnd - keyStart > MAX_NAME || !isToolName(key)) {
      return { pos, args: [], failed: failAt(text, keyEnd < 0 ? text.length : keyEnd) };
    }
    const valueEnd = this.valueEnd(keyEnd + 1);
    if (valueEnd < 0) return { pos, args: [], failed: unfinished };
    const value = trimTemplateNewlines(text.slice(keyEnd + 1, valueEnd));
    const closed = text.startsWith(PARAMETER_END, valueEnd);
    return { pos: valueEnd + (closed ? PARAMETER_END.length : 0), args: [[key, value]] };
  }

  call(name: string, from: number): { read: Read; end: number } {
    const args: [string, string][] = [];
    let pos = from;
    for (;;) {
      pos = skipSpace(this.text, pos);
      if (this.text.startsWith(FUNCTION_END, pos)) return { read: done(name, args), end: pos + FUNCTION_END.length };
      if (!this.text.startsWith(PARAMETER, pos)) return { read: failAt(this.text, pos), end: this.text.length };
      const next = this.parameter(pos);
      if (next.failed) return { read: next.failed, end: this.text.length };
      args.push(...next.args);
      pos = next.pos;
    }
  }
}

/** Qwen3-Coder: `<function=NAME>` followed by `<parameter=…>` tags or `</function>`. */
export function findQwenCoderCalls(text: string): Block[] {
  if (!text.includes(FUNCTION)) return [];
  const reader = new QwenReader(text);
  const blocks: Block[] = [];
  let floor = 0;
  for (const at of allOccurrences(text, FUNCTION)) {
    if (at < floor) continue;
    const nameStart = at + FUNCTION.length;
    const nameEnd = readName(text, nameStart);
    const body = skipSpace(text, nameEnd + 1);
    const framed = text.startsWith(PARAMETER, body) || text.startsWith(FUNCTION_END, body) || body >= text.length;
    // `<function=NAME>{…}` is llama 3.1's JSON form, read with the other JSON spans.
    if (nameEnd === nameStart || text[nameEnd] !== '>' || !framed) continue;
    const { read, end } = reader.call(text.slice(nameStart, nameEnd), body);
    // The `<tool_call>` wrapper around a Qwen3-Coder function, when there is one.
    const span = extendOver(text, { start: at, end }, TOOL_CALL, TOOL_CALL_END);
    blocks.push(blockOf(span.start, span.end, [read]));
    floor = span.end;
  }
  return blocks;
}
