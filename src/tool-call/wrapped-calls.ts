/**
 * Reads the formats whose calls sit between a family's own wrapper tokens, in a body no
 * other reader knows:
 * - Apertus: `<|tools_prefix|>[{"NAME": {…arguments}}]<|tools_suffix|>`, each object keyed by its tool;
 * - Olmo 3: `<function_calls>NAME(key="v")\nNAME2(…)</function_calls>`, Python-style statements.
 * Either body is read in either form (JSON or Python-style). Policy: the wrapper makes its
 * body a call attempt, so a body that cannot be read is broken; one left open at the end of
 * the reply is cut off unless it is already complete.
 */
import { isRecord } from '../shared/is-record.js';
import { blockOf, type Block, type Read, unfinished, unreadable } from './block.js';
import { classifyValue, type RawCall } from './formats.js';
import { parseJsonLoose } from './json-repair.js';
import { parsePythonicList, parsePythonicStatements } from './pythonic.js';
import { allOccurrences, TokenFinder } from './text-scan.js';

interface Wrapper {
  open: string;
  close: string;
}

/** One Apertus object: the usual call shapes, or `{"NAME": {…}}`. */
function apertusCall(item: unknown): RawCall[] | undefined {
  const classified = classifyValue(item);
  if (classified.kind === 'calls') return classified.calls;
  if (!isRecord(item)) return undefined;
  const entries = Object.entries(item);
  const [name, args] = entries[0] ?? [];
  const argsShaped = isRecord(args) || typeof args === 'string';
  return entries.length === 1 && name !== undefined && argsShaped ? [{ name, args }] : undefined;
}

function readJson(body: string): RawCall[] | undefined {
  const parsed = parseJsonLoose(body);
  if (!parsed.ok) return undefined;
  const items: unknown[] = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  const calls = items.map(apertusCall);
  return items.length > 0 && calls.every((call) => call !== undefined) ? calls.flat() : undefined;
}

// A JSON value or a Python-style call; `<invoke …>` and prose start otherwise.
const CALL_START = /^(?:[[{]|[A-Za-z_][\w.]*\s*\()/;

/** Either family's body in either form: models trained on one write the other too. */
function readBody(body: string): RawCall[] | undefined | null {
  const trimmed = body.trim();
  // `<function_calls><invoke …>` is the Anthropic-style format, read with the other invokes.
  // Nor is a tag named in prose (`the <function_calls> block`) a call being written.
  if (!CALL_START.test(trimmed)) return null;
  return readJson(trimmed) ?? parsePythonicStatements(trimmed) ?? parsePythonicList(trimmed);
}

const WRAPPERS: Wrapper[] = [
  { open: '<|tools_prefix|>', close: '<|tools_suffix|>' },
  { open: '<function_calls>', close: '</function_calls>' },
];

function findWrapped(text: string, wrapper: Wrapper): Block[] {
  const closes = new TokenFinder(text, wrapper.close);
  const blocks: Block[] = [];
  let floor = 0;
  for (const at of allOccurrences(text, wrapper.open)) {
    if (at < floor) continue;
    const bodyStart = at + wrapper.open.length;
    const close = closes.next(bodyStart);
    const bodyEnd = close < 0 ? text.length : close;
    const calls = readBody(text.slice(bodyStart, bodyEnd));
    if (calls === null) continue;
    const end = close < 0 ? text.length : close + wrapper.close.length;
    const reads: Read[] = calls ? calls.map((call) => ({ ok: true, call })) : [close < 0 ? unfinished : unreadable];
    blocks.push(blockOf(at, end, reads));
    // Every later opener is unclosed too: reading each to the end would be quadratic.
    if (close < 0) break;
    floor = end;
  }
  return blocks;
}

export function findWrappedCalls(text: string): Block[] {
  return WRAPPERS.flatMap((wrapper) => (text.includes(wrapper.open) ? findWrapped(text, wrapper) : []));
}
