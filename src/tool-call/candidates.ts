/**
 * Finds every place in a reply that may hold a call and reads it: the blocks of the model
 * families' own formats, bracket spans (JSON, repaired JSON, Python-style lists),
 * name-prefixed arguments, a bare `f(a=1)` reply, and a call the reply started but never
 * finished. Policy: spans inside code fences of other languages are code to show, and
 * anything inside an HTML comment or an `<analysis>` block is set aside: never calls.
 */
import type { Block } from './block.js';
import { findBlocks, type ReaderId } from './blocks.js';
import { classifyValue, looksLikeCall, type Classified } from './formats.js';
import { parseJsonLoose } from './json-repair.js';
import { scanBrackets, spanAt, type Span } from './json-scan.js';
import { CALL_FENCES, findDecorations, opensWithCallMarker, type Decorations, type Fence } from './markers.js';
import { findAsides } from './placement.js';
import { parsePythonicStatements, parsePythonicList } from './pythonic.js';

export interface Candidate extends Span {
  /** The span, or its fence when the fence holds nothing else: what an answer replaces. */
  outer: Span;
  parsed: Classified;
}

export interface ReplyScan {
  candidates: Candidate[];
  /** Tokens, prefixes and the fence lines around calls: not prose. */
  decorations: Span[];
  /** A call follows a token that only ever introduces calls: a long lead-in is still a lead-in. */
  explicit: boolean;
  /** The reply opens with such a token. */
  opensWithCallMarker: boolean;
  /** Where a call starts that the reply never finished. */
  cutOffAt?: number;
}

// A reply with more spans than this is a document, not a call; the cap bounds the work.
const MAX_SPANS = 200;
// A bare `f(a=1)` reply is short; longer text is prose or code.
const MAX_BARE_CALL = 20_000;
const CUT_OFF_WINDOW = 8000;
// Whitespace allowed between an introducing token and its call.
const MAX_GAP = 64;

export const isAttempt = (candidate: Candidate): boolean =>
  candidate.parsed.kind === 'calls' || candidate.parsed.kind === 'broken';

function fenceBodyAt(fences: Fence[], at: number): Fence | undefined {
  const fence = spanAt(fences, at);
  return fence && at >= fence.open.end ? fence : undefined;
}

/** `weakName`: the name came from a prefix prose can imitate, so a call the JSON spells out itself wins. */
function classifySpan(body: string, name: string | undefined, weakName = false): Classified {
  const json = parseJsonLoose(body);
  const own = json.ok ? classifyValue(json.value) : undefined;
  if (name !== undefined && weakName) {
    // A weak name only explains JSON that is not a call by itself.
    if (!json.ok || own?.kind !== 'content') return own ?? { kind: 'content' };
    return { kind: 'calls', weak: true, calls: [{ name, args: json.value }] };
  }
  if (name !== undefined) return json.ok ? { kind: 'calls', calls: [{ name, args: json.value }] } : { kind: 'broken' };
  if (own) return own;
  const pythonic = parsePythonicList(body);
  if (pythonic) return { kind: 'calls', weak: true, calls: pythonic };
  return looksLikeCall(body) ? { kind: 'broken' } : { kind: 'content' };
}

function outerOf(text: string, span: Span, fence: Fence | undefined): Span {
  if (!fence) return span;
  const around = text.slice(fence.open.end, span.start) + text.slice(span.end, fence.close?.start ?? fence.end);
  return around.trim() === '' ? { start: fence.start, end: fence.end } : span;
}

/** The reply without its decorations, for the bare-call check. */
function withoutDecorations(text: string, decorations: Span[]): string {
  let result = '';
  let from = 0;
  for (const span of [...decorations].sort((a, b) => a.start - b.start)) {
    if (span.start > from) result += text.slice(from, span.start);
    from = Math.max(from, span.end);
  }
  return (result + text.slice(from)).trim();
}

/** A reply that is nothing but Python-style calls: `f(a=1)`, or Gemma 3's `print(f(a=1))`. */
function bareCall(text: string, decorations: Span[]): Candidate | undefined {
  if (text.length > MAX_BARE_CALL) return undefined;
  const calls = parsePythonicStatements(withoutDecorations(text, decorations));
  const whole = { start: 0, end: text.length };
  return calls ? { ...whole, outer: whole, parsed: { kind: 'calls', weak: true, calls } } : undefined;
}

/** The ``` lines of fences that hold calls: decoration, not prose. */
function fenceLines(fences: Fence[], attempts: Candidate[]): Span[] {
  const holding = new Set<Fence>();
  for (const attempt of attempts) {
    const fence = fenceBodyAt(fences, attempt.start);
    if (fence && attempt.end <= fence.end) holding.add(fence);
  }
  return [...holding].flatMap((fence) => (fence.close ? [fence.open, fence.close] : [fence.open]));
}

/** Whether an attempt starts right after an introducing token (whitespace aside). */
/** Whether `start` comes right after an introducing token (whitespace aside). */
function introducedAt(text: string, start: number, introducerEnds: Set<number>): boolean {
  let at = start;
  while (at > 0 && start - at < MAX_GAP && /\s/.test(text[at - 1] ?? '')) at -= 1;
  return introducerEnds.has(at);
}

function followsIntroducer(text: string, attempts: Candidate[], introducerEnds: Set<number>): boolean {
  return attempts.some((attempt) => introducedAt(text, attempt.start, introducerEnds));
}

interface CutOffContext {
  blocks: Block[];
  asides: Span[];
  decorations: Decorations;
  lastAttemptEnd: number;
}

/**
 * An unclosed bracket that was a call being written: after the last attempt, by its keys or its
 * token; before it, only right after a call token. A batch whose first call never closed is
 * broken whole, not run from its second call on.
 */
function openBracket(text: string, unclosed: number[], context: CutOffContext): number | undefined {
  const { blocks, asides, decorations, lastAttemptEnd } = context;
  const inside = (at: number): boolean => spanAt(blocks, at) !== undefined || spanAt(asides, at) !== undefined;
  return unclosed.find((start) => {
    if (inside(start)) return false;
    const fence = fenceBodyAt(decorations.fences, start);
    if (fence && !CALL_FENCES.has(fence.lang)) return false;
    if (introducedAt(text, start, decorations.introducerEnds)) return true;
    return start >= lastAttemptEnd && looksLikeCall(text.slice(start, start + CUT_OFF_WINDOW));
  });
}

/** Bracket spans read as calls or content; spans inside a block belong to the block. */
function readSpans(text: string, spans: Span[], decorations: Decorations, blocks: Block[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const span of spans.slice(0, MAX_SPANS)) {
    if (decorations.tokenSpans.has(span.start) || spanAt(blocks, span.start)) continue;
    const fence = fenceBodyAt(decorations.fences, span.start);
    if (fence && !CALL_FENCES.has(fence.lang)) continue;
    const name = decorations.names.get(span.start);
    const parsed = classifySpan(text.slice(span.start, span.end), name, decorations.weakNames.has(span.start));
    candidates.push({ ...span, outer: outerOf(text, span, fence), parsed });
  }
  return candidates;
}

function blockCandidate(block: Block): Candidate {
  return { start: block.start, end: block.end, outer: block, parsed: block.parsed };
}

/** What lies in an aside is shown as it is: content, never an attempt. */
function setAside(candidates: Candidate[], asides: Span[]): Candidate[] {
  if (asides.length === 0) return candidates;
  return candidates.map((candidate) =>
    spanAt(asides, candidate.start) ? { ...candidate, parsed: { kind: 'content' } } : candidate,
  );
}

/**
 * When the format the model's template uses holds a call, that is how the model calls:
 * what other syntaxes the reply holds is text it shows. Otherwise every reading stands.
 */
function ownFormatFirst(candidates: Candidate[], blocks: Block[]): Candidate[] {
  const own = new Set(blocks.filter((block) => block.preferred === true).map((block) => block.start));
  if (!candidates.some((candidate) => own.has(candidate.start) && isAttempt(candidate))) return candidates;
  return candidates.map((candidate) =>
    own.has(candidate.start) ? candidate : { ...candidate, parsed: { kind: 'content' } },
  );
}

/** The first cut-off: a block left open, or an unclosed bracket after the last attempt. */
function firstCutOff(text: string, unclosed: number[], context: CutOffContext): number | undefined {
  const openBlock = context.blocks.find((block) => block.cutOff === true && !spanAt(context.asides, block.start));
  const found = [openBlock?.start, openBracket(text, unclosed, context)].filter((at): at is number => at !== undefined);
  return found.length > 0 ? Math.min(...found) : undefined;
}

/** `preferred`: the reader of the model's own template format, tried before the others. */
export function scanReply(text: string, preferred?: ReaderId): ReplyScan {
  const scan = scanBrackets(text);
  const decorations = findDecorations(text, scan.spans);
  const blocks = findBlocks(text, decorations.fences, scan.spans, preferred);
  const asides = findAsides(text);
  const found = [...blocks.map(blockCandidate), ...readSpans(text, scan.spans, decorations, blocks)];
  const candidates = ownFormatFirst(
    setAside(
      found.sort((a, b) => a.start - b.start),
      asides,
    ),
    blocks,
  );
  const fenceMarks = decorations.fences.flatMap((fence) => (fence.close ? [fence.open, fence.close] : [fence.open]));
  if (!candidates.some(isAttempt) && asides.length === 0) {
    const bare = bareCall(text, [...decorations.markers, ...fenceMarks]);
    if (bare) candidates.push(bare);
  }
  const attempts = candidates.filter(isAttempt);
  const lastAttemptEnd = Math.max(0, ...attempts.map((candidate) => candidate.end));
  const inBlock = (candidate: Candidate): boolean => spanAt(blocks, candidate.start) !== undefined;
  return {
    candidates,
    decorations: [...decorations.markers, ...fenceLines(decorations.fences, attempts)],
    explicit: attempts.some(inBlock) || followsIntroducer(text, attempts, decorations.introducerEnds),
    opensWithCallMarker: opensWithCallMarker(text),
    cutOffAt: firstCutOff(text, scan.unclosed, { blocks, asides, decorations, lastAttemptEnd }),
  };
}
