/**
 * Tells a call from an example. A call is the reply's main content: alone, in a fence
 * that is the whole reply, or with only a short lead-in and trailer. Policy: prose that
 * presents the object as an example, a hypothetical or a recap, a trailer that disowns it
 * ("just an illustration, don't run it"), or prose too long to be a lead-in, makes it
 * quoted text that is shown, never run; so does anything inside an HTML comment, an
 * `<analysis>` block or a Markdown quote (`> …`).
 */
import type { Span } from './json-scan.js';

// A lead-in is a sentence or two ("Let me check the file."); an explanation is longer.
const MAX_LEAD_IN = 400;
const MAX_TRAILER = 300;
const MAX_PROSE = 600;

// Phrases that present JSON as an illustration rather than an action. Flat alternations
// with word boundaries only: linear on any input. Kept narrow on purpose: a retry's
// lead-in ("That path was wrong, let me list the directory:") must not match.
const EXAMPLE_CUES: RegExp[] = [
  /\b(?:for|an|as|this|that|the following|such|another) examples?\b/i,
  /\bexamples?\s*:/i,
  /\be\.g\./i,
  /\bfor instance\b/i,
  /\blike (?:this|so|the following)\b/i,
  /\b(?:would|could|might) (?:reply|respond|answer|write|send|output|emit|use|call|look)\b/i,
  /\byou (?:can|could|would|should|might|may) (?:write|send|call|use|reply|respond|emit|output|run)\b/i,
  /\bhere(?: is|'s) how\b/i,
  /\b(?:format|syntax|template|schema) (?:is|looks|would)\b/i,
  /\b(?:does not|doesn't|do not|don't|won't|will not) need\b/i,
  /\bno (?:need|tool is needed|tool call is needed)\b/i,
  /\bif (?:I|we) (?:were|wanted)\b/i,
  /\b(?:an?|this|that|for|as|the following|purely|only|just|merely) illustrati(?:on|ve)\b/i,
  /\bhypothetical(?:ly)?\b/i,
  /\b(?:request|call|payload|message|invocation|body)s? (?:looks?|would look|would be) like\b/i,
  /\b(?:call|request|body|payload|message|invocation|command)s? would be\b/i,
  /\b(?:example|sample) (?:request|call|payload|message|invocation|output|reply|response)s?\b/i,
  /\billustrative\b/i,
  /\bfor reference\b/i,
  /\bon the wire\b/i,
  /\byou(?:'d| would) see\b/i,
  /\b(?:a|the) model (?:emits|writes|sends|outputs|would)\b/i,
  // A call the reply forbids or declines, before or after it: "Do NOT call this yet", "(do not execute)".
  /\b(?:do not|don't|never) (?:actually )?(?:run|execute|call|invoke|send)(?: (?:this|it|that|these|them|the following)\b|\s*[):.!,;])/i,
  /\b(?:not going to|I'm not|I am not) (?:actually )?(?:run|execut|call|invok|send|mak)(?:e|es|ing)?\b/i,
  /\bnot (?:executing|running|calling|sending|invoking)\b/i,
  /\bwhat (?:I|we) (?:will not|won't|would not|wouldn't) do\b/i,
  // A prohibition as an instruction ("Do not call write_file with these…", "You should not call this…").
  /(?:^|[.!?:;]\s+|\n\s*)(?:do not|don't|never) (?:run|execute|call|invoke|send)\b/i,
  /\b(?:should not|shouldn't|must not|mustn't) (?:be )?(?:run|execut|call|invok|sen[dt])/i,
  /\b(?:won't|will not|wouldn't|would not) (?:make|run|send|execute|call|invoke) (?:it|this|that|them)\b/i,
  /\bavoid (?:calling|running|executing|sending|invoking|making) (?:it|this|that|them)\b/i,
  // A protocol being described: "the client sends a message like the one below".
  /\blike the one (?:below|above|here)\b/i,
  /\b(?:a|the) (?:client|caller) (?:sends|writes|emits)\b/i,
  // Documentation: the reader is told to put their own values in.
  /\breplace (?:the|this|that|these|it)\b[^.\n]{0,60}\bwith (?:your|the real|an? actual)\b/i,
];

// A reply that disowns the call it just showed. Only the text after the object counts:
// before it, "I won't use that tool again" explains a retry.
const DISOWN_CUES: RegExp[] = [
  /\b(?:don't|do not|doesn't|does not|won't|will not|shouldn't|should not|never|not to) (?:actually )?(?:run|execute|call|invoke|send|use|perform)\b/i,
  /\bnot (?:a real|an actual|an? live|meant to (?:be )?(?:run|executed|called|sent))\b/i,
  /\b(?:just|only|merely|purely) (?:an? )?(?:example|sample|demo|demonstration|mock-?up|placeholder|template)\b/i,
  /\b(?:example|sample|illustration|demo) only\b/i,
  /\b(?:have not|haven't|did not|didn't|has not|hasn't) (?:been )?(?:sent|run|ran|executed|called|invoked|made)\b/i,
];

// Spans whose content is set aside from the reply: an HTML comment, an `<analysis>` block,
// and (below) the lines of a Markdown quote.
const ASIDES: [string, string][] = [
  ['<!--', '-->'],
  ['<analysis>', '</analysis>'],
];

// A recap names a call already made ("I called {…} and it returned 2"). Only the text
// after the object counts: before it, such words usually explain a retry.
const RECAP_CUES: RegExp[] = [
  /\b(?:I|we) (?:called|used|ran|invoked)\b/i,
  /\bwas (?:called|used|run|invoked)\b/i,
  /\breturned\b/i,
];

export function hasExampleCue(prose: string): boolean {
  return EXAMPLE_CUES.some((cue) => cue.test(prose));
}

function inInlineCode(text: string, span: Span): boolean {
  return text[span.start - 1] === '`' && text[span.end] === '`' && text[span.start - 2] !== '`';
}

function merge(intervals: Span[]): Span[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

interface Prose {
  lead: string;
  trailer: string;
  all: string;
}

/** The text around the calls, with the calls and their decorations taken out. */
export function proseAround(text: string, calls: Span[], decorations: Span[]): Prose {
  const covered = merge([...calls, ...decorations]);
  const firstCall = Math.min(...calls.map((call) => call.start));
  const lastCall = Math.max(...calls.map((call) => call.end));
  const pieces: { start: number; text: string }[] = [];
  let from = 0;
  for (const interval of [...covered, { start: text.length, end: text.length }]) {
    if (interval.start > from) pieces.push({ start: from, text: text.slice(from, interval.start) });
    from = Math.max(from, interval.end);
  }
  const join = (selected: { text: string }[]): string =>
    selected
      .map((piece) => piece.text.trim())
      .filter(Boolean)
      .join(' ');
  return {
    lead: join(pieces.filter((piece) => piece.start < firstCall)),
    trailer: join(pieces.filter((piece) => piece.start >= lastCall)),
    all: join(pieces),
  };
}

/**
 * Whether the calls are what the reply does, rather than something it talks about.
 * `explicit`: a tool-call token was present, so a long lead-in is still a lead-in.
 */
export function presentedAsCalls(text: string, calls: Span[], decorations: Span[], explicit: boolean): boolean {
  const prose = proseAround(text, calls, decorations);
  if (prose.all === '') return true;
  // `{…}` in inline code inside a sentence is being talked about, not sent.
  if (calls.some((call) => inInlineCode(text, call)) && prose.all.replaceAll('`', '').trim() !== '') return false;
  if (
    !explicit &&
    (prose.lead.length > MAX_LEAD_IN || prose.trailer.length > MAX_TRAILER || prose.all.length > MAX_PROSE)
  ) {
    return false;
  }
  const disowned = [...RECAP_CUES, ...DISOWN_CUES].some((cue) => cue.test(prose.trailer));
  return !hasExampleCue(prose.all) && !disowned;
}

// A quoted line: `>` after at most three spaces. Functionary's `>>>name` lines are calls, not quotes.
const QUOTE_LINE = /^[ \t]{0,3}>(?!>>).*$/gm;

/** HTML comments, `<analysis>` blocks and quoted lines, sorted and disjoint; an unclosed block runs to the end. */
export function findAsides(text: string): Span[] {
  const asides: Span[] = [];
  for (const line of text.matchAll(QUOTE_LINE))
    asides.push({ start: line.index, end: line.index + line[0].length + 1 });
  for (const [open, close] of ASIDES) {
    for (let at = text.indexOf(open); at >= 0;) {
      const end = text.indexOf(close, at + open.length);
      asides.push({ start: at, end: end < 0 ? text.length : end + close.length });
      if (end < 0) break;
      at = text.indexOf(open, end + close.length);
    }
  }
  return merge(asides);
}
