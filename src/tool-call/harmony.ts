/**
 * gpt-oss's harmony format: messages `<|start|>ROLE to=RECIPIENT<|channel|>CHANNEL
 * <|constrain|>json<|message|>CONTENT<|call|>` (the recipient may also follow the channel,
 * `<|start|>` may be missing, and the message may end with `<|end|>`, `<|return|>`, the next
 * message, or nothing). Policy: the `analysis` channel is reasoning, never a call, whatever
 * its recipient; a message to `functions.NAME` on any other channel is a call; a tool's own
 * message (`… to=assistant`) is not.
 */
import { blockOf, type Block, type Read, unfinished, unreadable } from './block.js';
import { parseJsonLoose } from './json-repair.js';
import { allOccurrences, isToolName, readName, skipSpace, TokenFinder, withoutNamespace } from './text-scan.js';

const START = '<|start|>';
const CHANNEL = '<|channel|>';
const MESSAGE = '<|message|>';
const ENDS = ['<|end|>', '<|call|>', '<|return|>'];
// A header is a role, a recipient, a channel and a content type: short.
const MAX_HEADER = 256;
const RECIPIENT = /\bto=([^\s<]+)/;
const BARE_RECIPIENT = 'to=functions.';
// What may sit between a bare recipient and its JSON: the content type.
const CONTENT_TYPES = ['<|constrain|>', 'json', 'code'];
// The role and channel words left before a bare recipient once the tokens are stripped.
const BARE_HEADER = /(?:assistant)?(?:<\|channel\|>)?commentary\s*$/;
const CHANNEL_NAME = /<\|channel\|>\s*([\w-]+)/;

export interface HarmonyMessage {
  /** The header's first character. */
  start: number;
  contentStart: number;
  contentEnd: number;
  /** After the terminating token, if any. */
  end: number;
  channel: string;
  recipient?: string;
  /** The reply ended inside the message's content. */
  atEnd: boolean;
}

/** Where the header of the message whose `<|message|>` is at `at` begins, or -1 if there is none. */
function headerStart(text: string, at: number, floor: number): number {
  const from = Math.max(floor, at - MAX_HEADER);
  const window = text.slice(from, at);
  const tokens = [window.lastIndexOf(START), window.indexOf(CHANNEL)].filter((index) => index >= 0);
  if (tokens.length > 0) return from + Math.min(...tokens);
  // Without tokens, only a `to=` header on its own line counts.
  const lineStart = window.lastIndexOf('\n') + 1;
  return RECIPIENT.test(window.slice(lineStart)) ? from + lineStart : -1;
}

class Terminators {
  private readonly finders: TokenFinder[];
  constructor(text: string) {
    this.finders = [...ENDS, START, CHANNEL].map((token) => new TokenFinder(text, token));
  }
  /** The first token that ends content starting at `from`: its position and length, if any. */
  after(from: number): { at: number; length: number; closing: boolean } | undefined {
    let best: { at: number; length: number; closing: boolean } | undefined;
    for (const finder of this.finders) {
      const at = finder.next(from);
      if (at >= 0 && (best === undefined || at < best.at)) {
        best = { at, length: finder.token.length, closing: ENDS.includes(finder.token) };
      }
    }
    return best;
  }
}

/** Every harmony message of the reply, in order. */
export function harmonyMessages(text: string): HarmonyMessage[] {
  if (!text.includes(MESSAGE)) return [];
  const terminators = new Terminators(text);
  const messages: HarmonyMessage[] = [];
  let floor = 0;
  for (const at of allOccurrences(text, MESSAGE)) {
    if (at < floor) continue;
    const start = headerStart(text, at, floor);
    if (start < 0) continue;
    const header = text.slice(start, at);
    const contentStart = at + MESSAGE.length;
    const next = terminators.after(contentStart);
    const contentEnd = next?.at ?? text.length;
    const end = next?.closing ? next.at + next.length : contentEnd;
    const channel = CHANNEL_NAME.exec(header)?.[1] ?? '';
    const recipient = RECIPIENT.exec(header)?.[1];
    messages.push({ start, contentStart, contentEnd, end, channel, recipient, atEnd: next === undefined });
    floor = end;
  }
  return messages;
}

const isCall = (message: HarmonyMessage): boolean =>
  message.channel !== 'analysis' && message.recipient !== undefined && message.recipient !== 'assistant';

function readCall(text: string, message: HarmonyMessage): Read {
  const name = withoutNamespace(message.recipient ?? '');
  const content = text.slice(message.contentStart, message.contentEnd).trim();
  const parsed = content === '' ? { ok: true as const, value: {} } : parseJsonLoose(content);
  if (parsed.ok && isToolName(name)) return { ok: true, call: { name, args: parsed.value } };
  return message.atEnd ? unfinished : unreadable;
}

export function findHarmonyCalls(text: string): Block[] {
  return harmonyMessages(text)
    .filter(isCall)
    .map((message) => blockOf(message.start, message.end, [readCall(text, message)]));
}

/** The reply without its analysis messages, and their text: reasoning, never a call. */
export function splitHarmony(text: string): { thinking: string[]; visible: string } {
  const analysis = harmonyMessages(text).filter((message) => message.channel === 'analysis');
  if (analysis.length === 0) return { thinking: [], visible: text };
  let visible = '';
  let from = 0;
  for (const message of analysis) {
    visible += text.slice(from, message.start);
    from = message.end;
  }
  visible += text.slice(from);
  const thinking = analysis.map((message) => text.slice(message.contentStart, message.contentEnd));
  return { thinking, visible };
}

/** An answer without harmony's headers and end tokens: only what the messages say. */
export function harmonyText(text: string): string {
  const messages = harmonyMessages(text);
  if (messages.length === 0) return text;
  let shown = '';
  let from = 0;
  for (const message of messages) {
    shown += text.slice(from, message.start) + text.slice(message.contentStart, message.contentEnd);
    from = message.end;
  }
  return shown + text.slice(from);
}

/** A recipient written without harmony's tokens, and where its JSON arguments start. */
export interface BareRecipient {
  /** The header's start (its `commentary` word, when present). */
  start: number;
  /** Where the arguments start. */
  end: number;
  name: string;
}

/**
 * gpt-oss's calls when a server strips the special tokens but keeps their text:
 * `assistantcommentary to=functions.NAME json{…}`. Only the `functions.` namespace counts,
 * so a `to=` in prose is never a call.
 */
export function bareRecipients(text: string): BareRecipient[] {
  const found: BareRecipient[] = [];
  for (const at of allOccurrences(text, BARE_RECIPIENT)) {
    const nameStart = at + 'to='.length;
    const nameEnd = readName(text, nameStart);
    let end = skipSpace(text, nameEnd);
    for (const type of CONTENT_TYPES) if (text.startsWith(type, end)) end = skipSpace(text, end + type.length);
    if (text[end] !== '{') continue;
    const before = BARE_HEADER.exec(text.slice(Math.max(0, at - 40), at));
    const start = before ? at - before[0].length : at;
    found.push({ start, end, name: withoutNamespace(text.slice(nameStart, nameEnd)) });
  }
  return found;
}
