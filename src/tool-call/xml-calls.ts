/**
 * Reads calls written as XML elements:
 * - our own protocol's XML form: `<use_tool server="calculator" tool="evaluate">{"expression": "2+2"}</use_tool>`,
 *   or with `<server>`, `<tool>` and `<arguments>` children, the arguments as JSON or as one child per argument;
 * - Cline/Roo's `<use_mcp_tool><server_name>…</server_name><tool_name>…</tool_name><arguments>{…}</arguments></use_mcp_tool>`.
 * Policy: the element is parsed with fast-xml-parser; a JSON argument body is taken out
 * whole first (JSON may hold `<` and `&` that are not markup). Per-argument children are
 * text, typed later by the tool's schema.
 */
import { blockOf, type Block, type Read, unfinished, unreadable } from './block.js';
import { parseJsonLoose } from './json-repair.js';
import { allOccurrences, TokenFinder, trimTemplateNewlines } from './text-scan.js';
import { readChildren, readOpenTag, type OpenTag, type XmlChild } from './xml-tags.js';

interface Dialect {
  tag: string;
  server: string[];
  tool: string[];
}

const DIALECTS: Dialect[] = [
  { tag: 'use_tool', server: ['server', 'server_name'], tool: ['tool', 'tool_name', 'name'] },
  { tag: 'use_mcp_tool', server: ['server_name', 'server'], tool: ['tool_name', 'tool', 'name'] },
];
const ARGUMENT_TAGS = ['arguments', 'args', 'parameters', 'input'];

/** A JSON argument body (`<arguments>{…}</arguments>`, or the whole content), taken out before XML parsing. */
function jsonBody(inner: string): { json?: string; rest: string } {
  const trimmed = inner.trim();
  if (trimmed.startsWith('{')) return { json: trimmed, rest: '' };
  for (const tag of ARGUMENT_TAGS) {
    const open = inner.indexOf(`<${tag}>`);
    const close = open < 0 ? -1 : inner.indexOf(`</${tag}>`, open);
    if (close < 0) continue;
    const body = inner.slice(open + tag.length + 2, close).trim();
    if (!body.startsWith('{')) continue;
    return { json: body, rest: inner.slice(0, open) + inner.slice(close + tag.length + 3) };
  }
  return { rest: inner };
}

const childText = (children: XmlChild[], names: string[]): string | undefined =>
  children.find((child) => names.includes(child.name))?.text.trim();

function perArgument(children: XmlChild[]): { args: Record<string, string>; keys: string[] } {
  const entries = children.map((child): [string, string] => [child.name, trimTemplateNewlines(child.text)]);
  return { args: Object.fromEntries(entries), keys: entries.map(([key]) => key) };
}

function readArguments(json: string | undefined, children: XmlChild[], dialect: Dialect): Read | undefined {
  if (json !== undefined) {
    const parsed = parseJsonLoose(json);
    return parsed.ok ? { ok: true, call: { name: '', args: parsed.value } } : undefined;
  }
  const holder = children.find((child) => ARGUMENT_TAGS.includes(child.name));
  const named = new Set([...dialect.server, ...dialect.tool]);
  const own = holder ? holder.children : children.filter((child) => !named.has(child.name));
  if (holder && own.length === 0 && holder.text.trim() !== '') return undefined;
  const { args, keys } = perArgument(own);
  return { ok: true, call: { name: '', args, textKeys: keys } };
}

function readCall(open: OpenTag, inner: string, dialect: Dialect): Read {
  const { json, rest } = jsonBody(inner);
  const children = readChildren(rest);
  if (children === undefined) return unreadable;
  const attribute = (names: string[]): string | undefined =>
    names.map((name) => open.attributes[name]).find((value) => value !== undefined);
  const tool = attribute(dialect.tool) ?? childText(children, dialect.tool);
  const server = attribute(dialect.server) ?? childText(children, dialect.server);
  const args = readArguments(json, children, dialect);
  if (!tool || !args?.ok) return unreadable;
  return { ok: true, call: { ...args.call, name: tool, ...(server ? { server } : {}) } };
}

/** Whether an unclosed element was a call being written, not the tag named in prose. */
function startsCall(text: string, open: OpenTag, dialect: Dialect): boolean {
  if ([...dialect.server, ...dialect.tool].some((name) => open.attributes[name] !== undefined)) return true;
  const rest = text.slice(open.end, open.end + 64).trimStart();
  return [...dialect.server, ...dialect.tool].some((name) => rest.startsWith(`<${name}>`)) || rest.startsWith('{');
}

function findDialect(text: string, dialect: Dialect): Block[] {
  const closes = new TokenFinder(text, `</${dialect.tag}>`);
  const blocks: Block[] = [];
  let floor = 0;
  for (const at of allOccurrences(text, `<${dialect.tag}`)) {
    const open = at < floor ? undefined : readOpenTag(text, at, dialect.tag);
    if (!open) continue;
    const close = open.selfClosing ? open.end : closes.next(open.end);
    if (close < 0) {
      if (startsCall(text, open, dialect)) blocks.push(blockOf(at, text.length, [unfinished], true));
      break;
    }
    const end = open.selfClosing ? open.end : close + dialect.tag.length + 3;
    blocks.push(blockOf(at, end, [readCall(open, text.slice(open.end, close), dialect)], true));
    floor = end;
  }
  return blocks;
}

export function findXmlCalls(text: string): Block[] {
  return DIALECTS.flatMap((dialect) => (text.includes(`<${dialect.tag}`) ? findDialect(text, dialect) : []));
}
