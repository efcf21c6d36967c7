/**
 * The shape every reader of a template call format returns: a block of the reply (its
 * tokens and tags included) and what it holds. Policy: a block is only made where the
 * format's own structure was found, never for a token merely mentioned in prose; a block
 * whose structure was opened and never finished is cut off, so nothing in it runs.
 */
import type { Classified, RawCall } from './formats.js';
import type { Span } from './json-scan.js';

export interface Block extends Span {
  /** The calls read, or `broken` for a complete frame whose contents cannot be read. */
  parsed: Classified;
  /** The call was opened and the reply ended before it was finished. */
  cutOff?: boolean;
  /** Plain XML markup: it may also sit in an ```xml fence. */
  xml?: boolean;
  /** Read by the reader of the format the model's template uses (Ollama's `parser`). */
  preferred?: boolean;
}

export const broken: Classified = { kind: 'broken' };

export function callsOf(calls: RawCall[]): Classified {
  return calls.length > 0 ? { kind: 'calls', calls } : broken;
}

/** One call's reading: the call, or why it is not one. */
export type Read = { ok: true; call: RawCall } | { ok: false; cutOff: boolean };

export const unreadable: Read = { ok: false, cutOff: false };
export const unfinished: Read = { ok: false, cutOff: true };

/** The block for consecutive calls read from `start` to `end`: broken or cut off if any one is. */
export function blockOf(start: number, end: number, reads: Read[], xml?: boolean): Block {
  const calls = reads.flatMap((read) => (read.ok ? [read.call] : []));
  const failed = reads.filter((read) => !read.ok);
  const cutOff = failed.some((read) => !read.ok && read.cutOff);
  const parsed = failed.length > 0 ? broken : callsOf(calls);
  return { start, end, parsed, ...(cutOff ? { cutOff } : {}), ...(xml ? { xml } : {}) };
}
