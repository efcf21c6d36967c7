/**
 * Finds every place in a reply that may hold a call and reads it: bracket spans (JSON,
 * repaired JSON, Python-style lists), name-prefixed arguments, a bare `f(a=1)` reply, and
 * a call the reply started but never finished. Policy: spans inside code fences of other
 * languages are code to show, never calls.
 */
import { classifyValue, looksLikeCall, type Classified } from './formats.js';
import { parseJsonLoose } from './json-repair.js';
import { scanBrackets, spanAt, type Span } from './json-scan.js';
import { findDecorations, opensWithCallMarker, type Decorations, type Fence } from './markers.js';
import { parsePythonicCall, parsePythonicList } from './pythonic.js';

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

// Fence languages a call may be wrapped in; any other language is code to show.
const CALL_FENCES = new Set(['', 'json', 'json5', 'jsonc', 'tool_call', 'tool_code', 'tool', 'tool_calls']);
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

function classifySpan(body: string, name: string | undefined): Classified {
  const json = parseJsonLoose(body);
  if (name !== undefined) return json.ok ? { kind: 'calls', calls: [{ name, args: json.value }] } : { kind: 'broken' };
  if (json.ok) return classifyValue(json.value);
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

function bareCall(text: string, decorations: Span[]): Candidate | undefined {
  if (text.length > MAX_BARE_CALL) return undefined;
  const call = parsePythonicCall(withoutDecorations(text, decorations));
  const whole = { start: 0, end: text.length };
  return call ? { ...whole, outer: whole, parsed: { kind: 'calls', weak: true, calls: [call] } } : undefined;
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
function followsIntroducer(text: string, attempts: Candidate[], introducerEnds: Set<number>): boolean {
  return attempts.some((attempt) => {
    let at = attempt.start;
    while (at > 0 && attempt.start - at < MAX_GAP && /\s/.test(text[at - 1] ?? '')) at -= 1;
    return introducerEnds.has(at);
  });
}

function cutOffAt(text: string, unclosed: number[], after: number, fences: Fence[]): number | undefined {
  const start = unclosed.find((at) => at >= after);
  if (start === undefined) return undefined;
  const fence = fenceBodyAt(fences, start);
  if (fence && !CALL_FENCES.has(fence.lang)) return undefined;
  return looksLikeCall(text.slice(start, start + CUT_OFF_WINDOW)) ? start : undefined;
}

function readSpans(text: string, spans: Span[], decorations: Decorations): Candidate[] {
  const candidates: Candidate[] = [];
  for (const span of spans.slice(0, MAX_SPANS)) {
    if (decorations.tokenSpans.has(span.start)) continue;
    const fence = fenceBodyAt(decorations.fences, span.start);
    if (fence && !CALL_FENCES.has(fence.lang)) continue;
    const parsed = classifySpan(text.slice(span.start, span.end), decorations.names.get(span.start));
    candidates.push({ ...span, outer: outerOf(text, span, fence), parsed });
  }
  return candidates;
}

export function scanReply(text: string): ReplyScan {
  const scan = scanBrackets(text);
  const decorations = findDecorations(text, scan.spans);
  const candidates = readSpans(text, scan.spans, decorations);
  const fenceMarks = decorations.fences.flatMap((fence) => (fence.close ? [fence.open, fence.close] : [fence.open]));
  if (!candidates.some(isAttempt)) {
    const bare = bareCall(text, [...decorations.markers, ...fenceMarks]);
    if (bare) candidates.push(bare);
  }
  const attempts = candidates.filter(isAttempt);
  const lastAttemptEnd = Math.max(0, ...attempts.map((candidate) => candidate.end));
  return {
    candidates,
    decorations: [...decorations.markers, ...fenceLines(decorations.fences, attempts)],
    explicit: followsIntroducer(text, attempts, decorations.introducerEnds),
    opensWithCallMarker: opensWithCallMarker(text),
    cutOffAt: cutOffAt(text, scan.unclosed, lastAttemptEnd, decorations.fences),
  };
}
