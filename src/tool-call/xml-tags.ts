/**
 * XML reading for the call formats written as markup, on fast-xml-parser: the attributes
 * of an opening tag (`<invoke name="x">`) and the child elements of a call
 * (`<server>…</server><tool>…</tool>`). Policy: markup is parsed by the library, never by
 * hand; the extent of a call is found first by its closing tag, so a reply's prose never
 * reaches the parser, and text the parser cannot read is reported as unreadable.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isRecord } from '../shared/is-record.js';

export interface OpenTag {
  /** Index just past the tag's `>`. */
  end: number;
  attributes: Record<string, string>;
  selfClosing: boolean;
}

/** An element child of a call: its tag name and its text (children flattened to text). */
export interface XmlChild {
  name: string;
  text: string;
  /** The child holds elements itself (per-argument children inside `<arguments>`). */
  children: XmlChild[];
}

// An opening tag with its attributes is short; the bound keeps a stray `<` from scanning on.
const MAX_TAG = 1024;

const attributeParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  allowBooleanAttributes: true,
});

const childParser = new XMLParser({
  ignoreAttributes: true,
  preserveOrder: true,
  parseTagValue: false,
  trimValues: false,
});

/** Index of the `>` closing the tag whose attributes start at `from` (quotes honoured), or -1. */
function tagEnd(text: string, from: number): number {
  let quote = '';
  const limit = Math.min(text.length, from + MAX_TAG);
  for (let i = from; i < limit; i += 1) {
    const ch = text[i];
    if (quote !== '') {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '>') {
      return i;
    } else if (ch === '<') {
      return -1;
    }
  }
  return -1;
}

/** The attributes written in `source` (`name="x" index="0"`); none when they are not well-formed. */
export function attributesOf(source: string): Record<string, string> {
  if (XMLValidator.validate(`<t ${source}/>`) !== true) return {};
  const parsed: unknown = attributeParser.parse(`<t ${source}/>`);
  const element = isRecord(parsed) ? parsed.t : undefined;
  if (!isRecord(element)) return {};
  return Object.fromEntries(Object.entries(element).map(([key, value]) => [key, String(value)]));
}

/** The opening tag `<NAME …>` at `at` (NAME may carry a template prefix such as `|DSML|`). */
export function readOpenTag(text: string, at: number, name: string): OpenTag | undefined {
  const open = `<${name}`;
  if (!text.startsWith(open, at)) return undefined;
  const after = at + open.length;
  const next = text[after] ?? '';
  // `<invokes>` is not `<invoke>`.
  if (next !== '>' && next !== '/' && !/\s/.test(next)) return undefined;
  const close = tagEnd(text, after);
  if (close < 0) return undefined;
  const selfClosing = text[close - 1] === '/';
  const source = text.slice(after, selfClosing ? close - 1 : close).trim();
  return { end: close + 1, attributes: source === '' ? {} : attributesOf(source), selfClosing };
}

function textOf(nodes: unknown): string {
  if (!Array.isArray(nodes)) return '';
  return nodes
    .map((node: unknown) => {
      if (!isRecord(node)) return '';
      if (typeof node['#text'] === 'string' || typeof node['#text'] === 'number') return String(node['#text']);
      const [key] = Object.keys(node);
      return key === undefined ? '' : textOf(node[key]);
    })
    .join('');
}

function childrenOf(nodes: unknown): XmlChild[] {
  if (!Array.isArray(nodes)) return [];
  return nodes.flatMap((node: unknown): XmlChild[] => {
    if (!isRecord(node)) return [];
    const name = Object.keys(node).find((key) => key !== '#text' && key !== ':@');
    if (name === undefined) return [];
    const inner = node[name];
    return [{ name, text: textOf(inner), children: childrenOf(inner) }];
  });
}

/** Escapes what a model writes raw inside element text: `&` that starts no entity, `<` that starts no tag. */
function escapeStrays(xml: string): string {
  return xml.replace(/&(?!#?\w{1,10};)/g, '&amp;').replace(/<(?![/A-Za-z_!?])/g, '&lt;');
}

/** The element children of `inner` (a call's content), or undefined when it is not readable markup. */
export function readChildren(inner: string): XmlChild[] | undefined {
  for (const candidate of [inner, escapeStrays(inner)]) {
    const wrapped = `<call>${candidate}</call>`;
    if (XMLValidator.validate(wrapped) !== true) continue;
    const parsed: unknown = childParser.parse(wrapped);
    const [root] = Array.isArray(parsed) ? parsed : [];
    return isRecord(root) ? childrenOf(root.call) : [];
  }
  return undefined;
}
