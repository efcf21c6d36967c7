/**
 * Reads the `<invoke name="…"><parameter name="…">value</parameter></invoke>` family:
 * - MiniMax M2, inside `<minimax:tool_call>`;
 * - Anthropic-style, inside `<function_calls>` (Glimmer's `<atem:function_calls>` alike);
 * - DeepSeek V3.2's DSML: `<｜DSML｜function_calls><｜DSML｜invoke name="…"><｜DSML｜parameter
 *   name="…" string="true">…</｜DSML｜parameter>`, where `string="false"` marks a JSON value;
 *   V4 wraps the same invokes in `<｜DSML｜tool_calls>` and prints its bars doubled
 *   (`<｜｜DSML｜｜invoke`), sometimes with a space before the tag name.
 * - Step-3 / Step-3.5's `<steptml:invoke name="…"><steptml:parameter name="…">`, after
 *   `function<｜tool_sep｜>` in DeepSeek-style call tokens (./special-tokens.ts) or alone;
 * - MiniMax M3, inside `<tool_call>`: each argument an element named by its parameter
 *   (`<city>Paris</city>`), read by ./minimax-m3.ts.
 * Several invokes in one block are several calls. Tag attributes are read with the XML
 * library; values are raw text up to their closing tag (templates do not escape them) and
 * are typed later by the tool's schema. Policy: an invoke left open at the end of the
 * reply is cut off, unless all that is missing is its closing tag (and its wrapper's): every
 * value closed by its own tag, then nothing but the reply's end. A stop sequence ends a reply
 * so; a cut in the middle of a value never passes for it.
 */
import { blockOf, type Block, type Read, unfinished, unreadable } from './block.js';
import { parseJsonLoose } from './json-repair.js';
import {
  allOccurrences,
  asciiTokens,
  firstOf,
  isToolName,
  skipSpace,
  TokenFinder,
  trimTemplateNewlines,
  withoutCdata,
} from './text-scan.js';
import { elementArguments } from './minimax-m3.js';
import { readOpenTag } from './xml-tags.js';

/**
 * Tag prefixes: plain (MiniMax, Anthropic), Anthropic's namespaced `antml:`, Glimmer's
 * `atem:`, Step's `steptml:`, and DeepSeek's `｜DSML｜` in the spellings V3.2 and V4 print (bars in ASCII).
 */
const PREFIXES = ['', 'antml:', 'atem:', 'steptml:', '|DSML|', '||DSML||', '|DSML| ', '||DSML|| '];
const STEP_PREFIX = 'steptml:';
const WRAPPERS = ['minimax:tool_call', 'function_calls', 'tool_calls', 'tool_call'];

interface Parameter {
  key: string;
  value: unknown;
  text: boolean;
  /** Closed by its own closing tag, not found to end where the next tag begins. */
  closed: boolean;
}

class InvokeReader {
  private readonly invokeEnd: TokenFinder;
  private readonly parameterEnd: TokenFinder;
  private readonly parameterOpen: TokenFinder;

  constructor(
    private readonly text: string,
    private readonly ascii: string,
    private readonly prefix: string,
  ) {
    this.invokeEnd = new TokenFinder(ascii, `</${prefix}invoke>`);
    this.parameterEnd = new TokenFinder(ascii, `</${prefix}parameter>`);
    this.parameterOpen = new TokenFinder(ascii, `<${prefix}parameter name=`);
  }

  /**
   * Where a value ends: its closing tag, or, when the model left that out (Ollama's and
   * vLLM's parsers recover the same way), the next parameter or the invoke's end.
   */
  private valueEnd(from: number): number {
    return firstOf([this.parameterEnd, this.parameterOpen, this.invokeEnd], from);
  }

  /** One parameter at `at`: its value and where it ends, or a failure. */
  private parameter(at: number): { parameter: Parameter; end: number } | Read {
    const open = readOpenTag(this.ascii, at, `${this.prefix}parameter`);
    const key = open?.attributes.name?.trim() ?? '';
    if (!open || !isToolName(key)) return at >= this.text.length ? unfinished : unreadable;
    const close = this.valueEnd(open.end);
    if (close < 0) return unfinished;
    const raw = withoutCdata(trimTemplateNewlines(this.text.slice(open.end, close)));
    const closed = this.ascii.startsWith(`</${this.prefix}parameter>`, close);
    const end = closed ? close + `</${this.prefix}parameter>`.length : close;
    // DSML marks each value: string="true" is text as written, "false" is JSON.
    const kind = open.attributes.string;
    if (kind === 'true') return { parameter: { key, value: raw, text: false, closed }, end };
    const json = kind === 'false' ? parseJsonLoose(raw.trim()) : undefined;
    if (json?.ok) return { parameter: { key, value: json.value, text: false, closed }, end };
    return { parameter: { key, value: raw, text: true, closed }, end };
  }

  /** The invoke at `at`: its reading and where it ends. */
  invoke(at: number): { read: Read; end: number } | undefined {
    const open = readOpenTag(this.ascii, at, `${this.prefix}invoke`);
    const name = open?.attributes.name?.trim() ?? '';
    if (!open || !isToolName(name)) return undefined;
    const parameters: Parameter[] = [];
    let pos = open.end;
    if (this.writesElements(pos)) return this.elementInvoke(name, pos);
    for (;;) {
      pos = skipSpace(this.ascii, pos);
      const closeTag = `</${this.prefix}invoke>`;
      const closed = this.ascii.startsWith(closeTag, pos);
      if (closed || (parameters.at(-1)?.closed === true && this.endBeforeClosingTags(pos) === pos)) {
        const args = Object.fromEntries(parameters.map((item) => [item.key, item.value]));
        const textKeys = parameters.filter((item) => item.text).map((item) => item.key);
        const end = closed ? pos + closeTag.length : this.text.length;
        return { read: { ok: true, call: { name, args, textKeys } }, end };
      }
      const next = this.parameter(pos);
      if (!('parameter' in next)) return { read: next, end: this.closeOf(pos) };
      parameters.push(next.parameter);
      pos = next.end;
    }
  }

  /**
   * Where the reply's last words from `from` on end, before the wrappers' closing tags and space
   * that may follow them: `from` itself when nothing else follows, the reply ending where the invoke should close.
   */
  private endBeforeClosingTags(from: number): number {
    let end = this.ascii.trimEnd().length;
    for (const wrapper of [...WRAPPERS].reverse()) {
      const close = `</${this.prefix}${wrapper}>`;
      const body = this.ascii.slice(from, end).trimEnd();
      if (body.endsWith(close)) end = from + body.length - close.length;
    }
    return from + this.ascii.slice(from, end).trimEnd().length;
  }

  /** MiniMax M3 writes each argument as an element named by its parameter, not as a `<parameter>`. */
  private writesElements(at: number): boolean {
    const pos = skipSpace(this.ascii, at);
    if (this.prefix !== '' || this.ascii[pos] !== '<' || this.ascii.startsWith('</invoke>', pos)) return false;
    return readOpenTag(this.ascii, pos, 'parameter') === undefined;
  }

  private elementInvoke(name: string, from: number): { read: Read; end: number } {
    const close = this.invokeEnd.next(from);
    if (close < 0) return this.unclosedElementInvoke(name, from);
    const read = elementArguments(this.text.slice(from, close));
    const end = close + '</invoke>'.length;
    return { read: read ? { ok: true, call: { name, ...read } } : unreadable, end };
  }

  /** An element invoke the reply ended in: whole when its elements all closed and only wrapper tags follow. */
  private unclosedElementInvoke(name: string, from: number): { read: Read; end: number } {
    const body = this.text.slice(from, this.endBeforeClosingTags(from));
    const read = body.endsWith('>') ? elementArguments(body) : undefined;
    const whole = read !== undefined && Object.keys(read.args).length > 0;
    return { read: whole ? { ok: true, call: { name, ...read } } : unfinished, end: this.text.length };
  }

  /** Where a broken invoke ends: its closing tag, or the reply's end. */
  private closeOf(from: number): number {
    const close = this.invokeEnd.next(from);
    return close < 0 ? this.text.length : close + `</${this.prefix}invoke>`.length;
  }
}

/** A run of invokes extended over the wrapper tags around it (whitespace between allowed). */
function wrapped(ascii: string, prefix: string, start: number, end: number): { start: number; end: number } {
  let from = start;
  let to = end;
  const windowStart = Math.max(0, start - 64);
  const before = ascii.slice(windowStart, start);
  const after = skipSpace(ascii, end);
  for (const wrapper of WRAPPERS) {
    const open = `<${prefix}${wrapper}>`;
    const found = before.lastIndexOf(open);
    if (found >= 0 && skipSpace(ascii, windowStart + found + open.length) === start) from = windowStart + found;
    const close = `</${prefix}${wrapper}>`;
    if (ascii.startsWith(close, after)) to = after + close.length;
  }
  return { start: from, end: to };
}

function findWithPrefix(text: string, ascii: string, prefix: string): Block[] {
  const reader = new InvokeReader(text, ascii, prefix);
  const blocks: Block[] = [];
  let run: { start: number; end: number; reads: Read[] } | undefined;
  const flush = (): void => {
    if (!run) return;
    const span = wrapped(ascii, prefix, run.start, run.end);
    blocks.push(blockOf(span.start, span.end, run.reads, !prefix.startsWith('|')));
    run = undefined;
  };
  for (const at of allOccurrences(ascii, `<${prefix}invoke`)) {
    if (run && at < run.end) continue;
    const invoke = reader.invoke(at);
    if (!invoke) continue;
    if (run && skipSpace(ascii, run.end) !== at) flush();
    if (!run) run = { start: at, end: invoke.end, reads: [] };
    run.end = invoke.end;
    run.reads.push(invoke.read);
  }
  flush();
  return blocks;
}

export function findInvokeCalls(text: string): Block[] {
  if (!text.includes('invoke')) return [];
  const ascii = asciiTokens(text);
  return PREFIXES.flatMap((prefix) => findWithPrefix(text, ascii, prefix));
}

/**
 * A Step call token's body, `function<|tool_sep|><steptml:invoke …>…</steptml:invoke>` (`ascii`:
 * the same body with ASCII tokens): its one call, or undefined when the body is not of that form.
 */
export function readStepInvoke(raw: string, ascii: string, separator: string): Read | undefined {
  const separatorAt = ascii.indexOf(separator);
  if (separatorAt < 0 || !['function', ''].includes(ascii.slice(0, separatorAt).trim())) return undefined;
  const at = skipSpace(ascii, separatorAt + separator.length);
  if (!ascii.startsWith(`<${STEP_PREFIX}invoke`, at)) return undefined;
  const invoke = new InvokeReader(raw, ascii, STEP_PREFIX).invoke(at);
  if (!invoke) return unreadable;
  // Only the call's end token may follow the invoke.
  return ascii.slice(invoke.end).trim() === '' ? invoke.read : unreadable;
}
