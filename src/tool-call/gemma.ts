/**
 * Reads Google's call formats:
 * - Gemma 4: `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:42}<tool_call|>`;
 * - FunctionGemma: `<start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>`;
 * - Gemma 3: a ```tool_code block of `print(NAME(key="value"))` statements.
 * The argument syntax has bare keys, strings between delimiter tokens (inner quotes raw),
 * JSON strings, numbers, booleans, null, nested objects and lists; a bare word is text.
 * Policy: a call whose closing token is missing still counts when its arguments are
 * complete; arguments that run off the end of the reply are cut off.
 */
import { blockOf, type Block, type Read, unfinished, unreadable } from './block.js';
import type { Fence } from './markers.js';
import { parsePythonicStatements } from './pythonic.js';
import { allOccurrences, isToolName, MAX_NAME, readName, skipSpace, withoutNamespace } from './text-scan.js';

interface Dialect {
  open: string;
  close: string;
  quote: string;
}

const DIALECTS: Dialect[] = [
  { open: '<|tool_call>', close: '<tool_call|>', quote: '<|"|>' },
  { open: '<start_function_call>', close: '<end_function_call>', quote: '<escape>' },
];
const MAX_DEPTH = 32;
const CALL_PREFIX = 'call:';
const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
// A bare key: letters, digits, `_`, `.` and `-`; the colon after it is the separator.
const KEY_CHAR = /[\w.-]/;

/** One signal instance for every failure: a failed read is common and needs no stack. */
const NOT_ARGUMENTS = new Error('not Gemma arguments');

/** Reads Gemma's argument object from `pos`; throws NOT_ARGUMENTS where it stops making sense. */
class ArgumentReader {
  constructor(
    private readonly text: string,
    private readonly quote: string,
    public pos: number,
  ) {}

  private fail(): never {
    throw NOT_ARGUMENTS;
  }

  /** A string still open when the reply ended: the call was cut off. */
  private failAtEnd(): never {
    this.pos = this.text.length;
    throw NOT_ARGUMENTS;
  }

  private peek(): string {
    this.pos = skipSpace(this.text, this.pos);
    return this.text[this.pos] ?? '';
  }

  private delimited(): string {
    const start = this.pos + this.quote.length;
    const end = this.text.indexOf(this.quote, start);
    if (end < 0) this.failAtEnd();
    this.pos = end + this.quote.length;
    return this.text.slice(start, end);
  }

  private jsonString(): unknown {
    let i = this.pos + 1;
    while (i < this.text.length && this.text[i] !== '"') i += this.text[i] === '\\' ? 2 : 1;
    if (i >= this.text.length) this.failAtEnd();
    const literal = this.text.slice(this.pos, i + 1);
    this.pos = i + 1;
    try {
      return JSON.parse(literal) as unknown;
    } catch {
      return literal.slice(1, -1);
    }
  }

  /** A bare word up to the next separator: a number, a literal, or text. */
  private bare(): unknown {
    const start = this.pos;
    while (this.pos < this.text.length && !',}]'.includes(this.text[this.pos] ?? '')) {
      if (this.text.startsWith(this.quote, this.pos) || this.text[this.pos] === '<') this.fail();
      this.pos += 1;
    }
    const word = this.text.slice(start, this.pos).trim();
    if (word === '') this.fail();
    if (word in LITERALS) return LITERALS[word];
    return NUMBER.test(word) ? Number(word) : word;
  }

  private key(): string {
    const next = this.peek();
    if (this.text.startsWith(this.quote, this.pos)) return this.delimited();
    if (next === '"') return String(this.jsonString());
    let end = this.pos;
    while (end < this.text.length && end - this.pos < MAX_NAME && KEY_CHAR.test(this.text[end] ?? '')) end += 1;
    if (end === this.pos) this.fail();
    const key = this.text.slice(this.pos, end);
    this.pos = end;
    return key;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail();
    const next = this.peek();
    if (this.text.startsWith(this.quote, this.pos)) return this.delimited();
    if (next === '"') return this.jsonString();
    if (next === '{') return this.object(depth);
    if (next === '[') return this.list(depth);
    return this.bare();
  }

  private list(depth: number): unknown[] {
    this.pos += 1;
    const items: unknown[] = [];
    while (this.peek() !== ']') {
      items.push(this.value(depth + 1));
      if (this.peek() === ',') this.pos += 1;
      else if (this.peek() !== ']') this.fail();
    }
    this.pos += 1;
    return items;
  }

  /** `{key:value,…}`; entries via fromEntries, so a `__proto__` key is data. */
  object(depth: number): Record<string, unknown> {
    if (this.peek() !== '{') this.fail();
    this.pos += 1;
    const entries: [string, unknown][] = [];
    while (this.peek() !== '}') {
      const key = this.key();
      if (this.peek() !== ':') this.fail();
      this.pos += 1;
      entries.push([key, this.value(depth + 1)]);
      if (this.peek() === ',') this.pos += 1;
      else if (this.peek() !== '}') this.fail();
    }
    this.pos += 1;
    return Object.fromEntries(entries);
  }
}

/** The call right after an opening token at `from`: its reading and where it ends. */
function readCall(text: string, from: number, dialect: Dialect): { read: Read; end: number } {
  const at = skipSpace(text, from);
  if (!text.startsWith(CALL_PREFIX, at)) return { read: unreadable, end: at };
  const nameStart = at + CALL_PREFIX.length;
  const nameEnd = readName(text, nameStart);
  const name = withoutNamespace(text.slice(nameStart, nameEnd));
  const reader = new ArgumentReader(text, dialect.quote, nameEnd);
  try {
    const args = reader.object(0);
    const after = skipSpace(text, reader.pos);
    const end = text.startsWith(dialect.close, after) ? after + dialect.close.length : reader.pos;
    return { read: isToolName(name) ? { ok: true, call: { name, args } } : unreadable, end };
  } catch (error) {
    if (error !== NOT_ARGUMENTS) throw error;
    const close = text.indexOf(dialect.close, reader.pos);
    if (close >= 0) return { read: unreadable, end: close + dialect.close.length };
    return { read: reader.pos >= text.length ? unfinished : unreadable, end: text.length };
  }
}

function findDialect(text: string, dialect: Dialect): Block[] {
  const blocks: Block[] = [];
  let run: { start: number; end: number; reads: Read[] } | undefined;
  for (const at of allOccurrences(text, dialect.open)) {
    if (run && at < run.end) continue;
    const { read, end } = readCall(text, at + dialect.open.length, dialect);
    if (run && skipSpace(text, run.end) !== at) {
      blocks.push(blockOf(run.start, run.end, run.reads));
      run = undefined;
    }
    if (!run) run = { start: at, end, reads: [] };
    run.end = Math.max(end, at + dialect.open.length);
    run.reads.push(read);
  }
  if (run) blocks.push(blockOf(run.start, run.end, run.reads));
  return blocks;
}

export function findGemmaCalls(text: string): Block[] {
  return DIALECTS.flatMap((dialect) => (text.includes(dialect.open) ? findDialect(text, dialect) : []));
}

/** Gemma 3's ```tool_code blocks of Python call statements (a JSON or list body is read elsewhere). */
export function findToolCodeCalls(text: string, fences: Fence[]): Block[] {
  return fences.flatMap((fence): Block[] => {
    if (fence.lang !== 'tool_code') return [];
    const body = text.slice(fence.open.end, fence.close?.start ?? text.length);
    const trimmed = body.trim();
    if (trimmed === '' || trimmed.startsWith('[') || trimmed.startsWith('{')) return [];
    const calls = parsePythonicStatements(trimmed);
    const reads: Read[] = calls
      ? calls.map((call): Read => ({ ok: true, call }))
      : [fence.close ? unreadable : unfinished];
    return [blockOf(fence.start, fence.end, reads)];
  });
}
