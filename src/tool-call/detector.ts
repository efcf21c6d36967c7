/**
 * The text tool-call detector: decides whether a model's reply is an answer, calls to
 * run, or a call attempt that cannot run (with a correction hint for the model). Pure.
 * It reads our JSON and XML protocols and the call formats local models print themselves
 * (harmony, DeepSeek, Kimi, GLM, MiniMax, Qwen XML, Seed, Gemma, Functionary, Command R7B,
 * Mistral, llama, LFM2, Apertus, Olmo 3, Hunyuan, Nemotron, Step, Cline, Anthropic-style), the
 * format Ollama names for the model first. Policy: tolerant in what it reads, strict in
 * what it runs: never from reasoning, a cut-off reply, an example, a quote or a forbidden
 * call, for a tool that does not exist, or on another server than the one the call names.
 * A call withheld in doubt (the reply's only call, drafted in its reasoning; an unfinished
 * call) is answered with one line naming it: why it did not run, and how to make it run.
 */
import { assertNever } from '../shared/errors.js';
import { isRecord } from '../shared/is-record.js';
import { isAttempt, scanReply, type Candidate } from './candidates.js';
import type { RawCall } from './formats.js';
import { buildHint, type Problem, type WithheldCall } from './hints.js';
import { parseJsonLoose } from './json-repair.js';
import { readerForParser } from './parser-hint.js';
import { cleanAnswer } from './markers.js';
import { hasExampleCue, presentedAsCalls } from './placement.js';
import { resolveTool } from './resolve.js';
import { typeTextArguments } from './text-args.js';
import { stripThinking } from './thinking.js';
import type { ToolCall, ToolSpec } from '../vocabulary/types.js';

export { stripThinking, type ThinkingSplit } from './thinking.js';
export { resolveTool, resolveToolName, type Resolution } from './resolve.js';

export type DetectResult =
  /** No call: the text to show. */
  | { type: 'answer'; text: string }
  /** Calls to run, in order. */
  | { type: 'calls'; calls: ToolCall[] }
  /** A call that cannot run. `unresolved`: the calls it named that do not exist, to report as failed. */
  | { type: 'malformed'; hint: string; unresolved?: ToolCall[]; withheld?: WithheldCall };

export interface DetectOptions {
  /** The reply hit the length limit (`done_reason: "length"`): nothing in it is run. */
  truncated?: boolean;
  /**
   * Every configured server, running or not (default: the servers of `tools`). A call that
   * names one of them runs only a tool of that server, never a same-named tool elsewhere.
   */
  knownServers?: string[];
  /** The template parser Ollama names for the model (`/api/show`): its format is read first. */
  parser?: string;
  /** The reasoning Ollama sent apart from the reply (its `thinking` field): never run, like inline reasoning. */
  reasoning?: string;
}

type CallOutcome = { type: 'ok'; call: ToolCall } | { type: 'problem'; problem: Problem; call: ToolCall };

/** Arguments as an object: absent means none; a string holding JSON is decoded. */
function normalizeArguments(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (isRecord(value)) return value;
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return {};
  const parsed = parseJsonLoose(value);
  return parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
}

function resolveCall(raw: RawCall, tools: ToolSpec[], knownServers: string[]): CallOutcome {
  const args = normalizeArguments(raw.args);
  const resolution = resolveTool(raw.name, raw.server, tools, knownServers);
  const server = raw.server?.trim() ?? '';
  const asWritten: ToolCall = { server, tool: raw.name.trim(), arguments: args ?? {} };
  switch (resolution.type) {
    case 'found': {
      const { spec } = resolution;
      const typed = args && raw.textKeys ? typeTextArguments(args, raw.textKeys, spec) : args;
      const call = { server: spec.server, tool: spec.name, arguments: typed ?? {} };
      return typed ? { type: 'ok', call } : { type: 'problem', problem: { type: 'bad-arguments', spec }, call };
    }
    case 'unknown': {
      const problem: Problem = { type: 'unknown-tool', name: asWritten.tool, server: server || undefined };
      return { type: 'problem', problem, call: asWritten };
    }
    case 'ambiguous': {
      const problem: Problem = { type: 'ambiguous-tool', name: asWritten.tool, candidates: resolution.candidates };
      return { type: 'problem', problem, call: asWritten };
    }
    case 'wrong-server': {
      const problem: Problem = {
        type: 'wrong-server',
        name: resolution.tool,
        server: resolution.server,
        serverTools: resolution.tools,
      };
      return { type: 'problem', problem, call: { ...asWritten, server: asWritten.server || resolution.server } };
    }
    default:
      return assertNever(resolution);
  }
}

/** Python-style lists imitate prose and code easily: they count only when they name a real tool. */
function isRealAttempt(candidate: Candidate, tools: ToolSpec[], knownServers: string[]): boolean {
  const parsed = candidate.parsed;
  if (parsed.kind !== 'calls' || !parsed.weak) return isAttempt(candidate);
  return parsed.calls.some((call) => resolveTool(call.name, call.server, tools, knownServers).type !== 'unknown');
}

function runAttempts(attempts: Candidate[], tools: ToolSpec[], knownServers: string[]): DetectResult {
  const calls: ToolCall[] = [];
  const problems: Problem[] = [];
  const unresolved: ToolCall[] = [];
  for (const { parsed } of attempts) {
    if (parsed.kind !== 'calls') {
      problems.push({ type: 'unparseable' });
      continue;
    }
    for (const raw of parsed.calls) {
      const outcome = resolveCall(raw, tools, knownServers);
      if (outcome.type === 'ok') calls.push(outcome.call);
      else {
        problems.push(outcome.problem);
        if (outcome.problem.type !== 'bad-arguments') unresolved.push(outcome.call);
      }
    }
  }
  // All or nothing: running half of a batch the model got partly wrong would surprise it.
  if (problems.length > 0) return malformed(problems, tools, unresolved);
  return { type: 'calls', calls };
}

function malformed(problems: Problem[], tools: ToolSpec[], unresolved: ToolCall[] = []): DetectResult {
  const hint = buildHint(problems, tools);
  return unresolved.length > 0 ? { type: 'malformed', hint, unresolved } : { type: 'malformed', hint };
}

/** The reply as shown: answer wrappers (`{"action": "final_answer", …}`) give way to their text. */
function answerText(visible: string, candidates: Candidate[]): string {
  let text = visible;
  const wrappers = candidates.filter((candidate) => candidate.parsed.kind === 'answer').reverse();
  for (const { outer, parsed } of wrappers) {
    if (parsed.kind === 'answer') text = text.slice(0, outer.start) + parsed.text + text.slice(outer.end);
  }
  return cleanAnswer(text);
}

/** The names the attempts' readable calls give, each once, in order. */
function calledNames(attempts: Candidate[]): string[] {
  const names = attempts.flatMap(({ parsed }) =>
    parsed.kind === 'calls' ? parsed.calls.map((call) => call.name.trim()) : [],
  );
  return [...new Set(names)];
}

// How far into an unfinished call its tool's name is looked for.
const NAME_WINDOW = 2000;

// A name inside a longer one (`read_file_v2`, `my-read_file`) is not that name; `functions.read_file` is.
const NAME_CHAR = /[\w-]/;
// How far before an unfinished call its tool's name may stand (`[TOOL_CALLS]evaluate[ARGS]{…`).
const NAME_BEFORE = 200;

/** Where `name` appears in `text` as a whole name: each place, in order. */
function wholeNameAt(text: string, name: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (!NAME_CHAR.test(text[at - 1] ?? ' ') && !NAME_CHAR.test(text[at + name.length] ?? ' ')) found.push(at);
  }
  return found;
}

/** The tool an unfinished call names: the first catalogue name inside it, else the nearest just before it. */
function namedInUnfinished(text: string, cutOffAt: number, tools: ToolSpec[]): string[] {
  const from = Math.max(0, cutOffAt - NAME_BEFORE);
  const window = text.slice(from, cutOffAt + NAME_WINDOW);
  const start = cutOffAt - from;
  let inside: { at: number; name: string } | undefined;
  let before: { at: number; name: string } | undefined;
  for (const { name } of tools) {
    for (const at of wholeNameAt(window, name)) {
      if (at >= start && (inside === undefined || at < inside.at)) inside = { at, name };
      if (at < start && (before === undefined || at > before.at)) before = { at, name };
    }
  }
  const named = inside ?? before;
  return named ? [named.name] : [];
}

// A lead-in that introduces a call ("Let me read the file:") is a sentence or two.
const MAX_ANNOUNCEMENT = 300;

/** A reply that ends by introducing a call it never wrote: its call is the one in the reasoning. */
function announcesCall(visible: string): boolean {
  const text = visible.trim();
  return text.length <= MAX_ANNOUNCEMENT && text.endsWith(':') && !hasExampleCue(text);
}

/**
 * A reply that is all reasoning, with a call drafted in it, or only a lead-in announcing the call:
 * the model meant to call but wrote it in the wrong place.
 */
function draftedOnly(
  visible: string,
  thinking: string,
  tools: ToolSpec[],
  knownServers: string[],
): string[] | undefined {
  if ((visible.trim() !== '' && !announcesCall(visible)) || thinking === '') return undefined;
  const drafts = scanReply(thinking).candidates.filter((candidate) => isRealAttempt(candidate, tools, knownServers));
  return drafts.length > 0 ? calledNames(drafts) : undefined;
}

function withheld(call: WithheldCall, tools: ToolSpec[]): DetectResult {
  return { type: 'malformed', hint: buildHint([call], tools), withheld: call };
}

export function detectToolCalls(raw: string, tools: ToolSpec[], options: DetectOptions = {}): DetectResult {
  // A server with tools is configured whatever the caller listed.
  const knownServers = [...new Set([...(options.knownServers ?? []), ...tools.map((tool) => tool.server)])];
  const split = stripThinking(raw);
  const { visible } = split;
  const thinking = [options.reasoning ?? '', split.thinking].filter(Boolean).join('\n');
  const scan = scanReply(visible, readerForParser(options.parser));
  const attempts = scan.candidates.filter((candidate) => isRealAttempt(candidate, tools, knownServers));
  const presented = attempts.length > 0 && presentedAsCalls(visible, attempts, scan.decorations, scan.explicit);
  const cutOff = scan.cutOffAt !== undefined && !hasExampleCue(visible.slice(0, scan.cutOffAt));
  const markerOnly = attempts.length === 0 && scan.opensWithCallMarker;
  if (cutOff || (options.truncated === true && (presented || markerOnly))) {
    const named =
      cutOff && scan.cutOffAt !== undefined ? namedInUnfinished(visible, scan.cutOffAt, tools) : calledNames(attempts);
    return withheld({ type: 'cut-off', tools: named }, tools);
  }
  if (presented) return runAttempts(attempts, tools, knownServers);
  if (markerOnly) return malformed([{ type: 'unparseable' }], tools);
  const drafted = options.truncated === true ? undefined : draftedOnly(visible, thinking, tools, knownServers);
  if (drafted) return withheld({ type: 'in-reasoning', tools: drafted }, tools);
  return { type: 'answer', text: answerText(visible, scan.candidates) };
}
