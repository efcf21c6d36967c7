/**
 * MiniMax M3's arguments: the M2 invoke (`<invoke name="…">`, inside `<tool_call>` or M2's
 * `<minimax:tool_call>`) with each argument as an element named by its parameter
 * (`<city>Paris</city>`), where M2 writes `<parameter name="city">`. Nested objects are
 * nested elements; arrays are repeated `<item>` elements, or the same element repeated.
 * Every tag of the format is printed after the namespace token `]<]minimax[>[` (llama.cpp's
 * detokenizer drops its first `]`); read without it, the markup is plain XML. Policy: a
 * leaf is text, nested ones included, typed later by the tool's schema.
 */
import { trimTemplateNewlines } from './text-scan.js';
import { readChildren, type XmlChild } from './xml-tags.js';

const NAMESPACE = /\]?<\]minimax\[>\[/g;

/** The reply with M3's namespace tokens taken out, so that its tags read as the bare ones. */
export function withoutMinimaxNamespace(text: string): string {
  return text.includes('<]minimax[>[') ? text.replace(NAMESPACE, '') : text;
}

const ITEM = 'item';

function valueOf(element: XmlChild): unknown {
  if (element.children.length === 0) return trimTemplateNewlines(element.text);
  if (element.children.every((child) => child.name === ITEM)) return element.children.map(valueOf);
  return objectOf(element.children);
}

function objectOf(elements: XmlChild[]): Record<string, unknown> {
  const grouped = new Map<string, unknown[]>();
  for (const element of elements) grouped.set(element.name, [...(grouped.get(element.name) ?? []), valueOf(element)]);
  // Rebuilt with fromEntries so that a `__proto__` element stays plain data.
  return Object.fromEntries([...grouped].map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
}

export interface ElementArguments {
  args: Record<string, unknown>;
  /** The arguments written as plain text (all of them, nested leaves included), to be typed by the tool's schema. */
  textKeys: string[];
}

/** The arguments of an invoke written as elements, or undefined when `body` is not such markup. */
export function elementArguments(body: string): ElementArguments | undefined {
  if (body.trim() === '') return { args: {}, textKeys: [] };
  const elements = readChildren(body);
  if (!elements || elements.length === 0) return undefined;
  const args = objectOf(elements);
  // Every value, nested ones too, was written as text.
  return { args, textKeys: Object.keys(args) };
}
