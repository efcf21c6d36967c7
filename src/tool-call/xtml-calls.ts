/**
 * Reads Kimi K3's XTML calls: `<|open|>tools<|sep|>`, then per call
 * `<|open|>call tool="NAME" index="0"<|sep|>`, per argument
 * `<|open|>argument key="K" type="number"<|sep|>TEXT<|close|>argument<|sep|>`, each closed
 * by `<|close|>call<|sep|>`. Only the four markers are special tokens; tags and attributes
 * are text. Policy: an argument typed `string` is its text as written, any other type is
 * JSON (text when it does not parse, typed later by the tool's schema); a call left open at
 * the end of the reply is cut off.
 */
import { blockOf, type Block, type Read, unfinished, unreadable } from './block.js';
import type { RawCall } from './formats.js';
import { parseJsonLoose } from './json-repair.js';
import { allOccurrences, extendOver, isToolName, skipSpace, TokenFinder } from './text-scan.js';
import { attributesOf } from './xml-tags.js';

const SEP = '<|sep|>';
const openTag = (name: string): string => `<|open|>${name}`;
const closeTag = (name: string): string => `<|close|>${name}${SEP}`;
const CALL_END = closeTag('call');
const ARGUMENT_END = closeTag('argument');
const TOOLS_OPEN = `${openTag('tools')}${SEP}`;
const TOOLS_CLOSE = closeTag('tools');

/** The attributes of the tag `<|open|>NAME …<|sep|>` at `at`, and where it ends. */
function readTag(
  text: string,
  at: number,
  name: string,
): { attributes: Record<string, string>; end: number } | undefined {
  const head = openTag(name);
  if (!text.startsWith(head, at) || !/[\s<]/.test(text[at + head.length] ?? '')) return undefined;
  const sep = text.indexOf(SEP, at + head.length);
  // Attributes are short: a separator far away belongs to something else.
  if (sep < 0 || sep - at > 512) return undefined;
  return { attributes: attributesOf(text.slice(at + head.length, sep).trim()), end: sep + SEP.length };
}

class XtmlReader {
  private readonly argumentEnds: TokenFinder;
  constructor(private readonly text: string) {
    this.argumentEnds = new TokenFinder(text, ARGUMENT_END);
  }

  /** The call whose opening tag is at `at`, and where it ends. */
  call(at: number): { read: Read; end: number } | undefined {
    const open = readTag(this.text, at, 'call');
    const name = open?.attributes.tool?.trim() ?? '';
    if (!open || !isToolName(name)) return undefined;
    const call: RawCall = { name, args: {}, textKeys: [] };
    const args: [string, unknown][] = [];
    for (let pos = skipSpace(this.text, open.end); ; pos = skipSpace(this.text, pos)) {
      if (this.text.startsWith(CALL_END, pos)) {
        const read: Read = { ok: true, call: { ...call, args: Object.fromEntries(args) } };
        return { read, end: pos + CALL_END.length };
      }
      const argument = readTag(this.text, pos, 'argument');
      const key = argument?.attributes.key?.trim() ?? '';
      if (!argument || !isToolName(key))
        return { read: pos >= this.text.length ? unfinished : unreadable, end: this.text.length };
      const close = this.argumentEnds.next(argument.end);
      if (close < 0) return { read: unfinished, end: this.text.length };
      const raw = this.text.slice(argument.end, close);
      const json = argument.attributes.type === 'string' ? undefined : parseJsonLoose(raw.trim());
      if (json?.ok) args.push([key, json.value]);
      else {
        args.push([key, raw]);
        if (json) call.textKeys?.push(key);
      }
      pos = close + ARGUMENT_END.length;
    }
  }
}

export function findXtmlCalls(text: string): Block[] {
  if (!text.includes(openTag('call'))) return [];
  const reader = new XtmlReader(text);
  const blocks: Block[] = [];
  let run: { start: number; end: number; reads: Read[] } | undefined;
  const flush = (): void => {
    if (!run) return;
    const span = extendOver(text, run, TOOLS_OPEN, TOOLS_CLOSE);
    blocks.push(blockOf(span.start, span.end, run.reads));
    run = undefined;
  };
  for (const at of allOccurrences(text, openTag('call'))) {
    if (run && at < run.end) continue;
    const found = reader.call(at);
    if (!found) continue;
    if (run && skipSpace(text, run.end) !== at) flush();
    run ??= { start: at, end: found.end, reads: [] };
    run.end = found.end;
    run.reads.push(found.read);
  }
  flush();
  return blocks;
}
