/**
 * The text tool-call detector: decides whether a model's reply is an answer, calls to
 * run, or a call attempt that cannot run (with a correction hint for the model). Pure.
 * It reads our JSON and XML protocols and the call formats local models print themselves
 * (harmony, DeepSeek, Kimi, GLM, MiniMax, Qwen XML, Seed, Gemma, Functionary, Command R7B,
 * Mistral, llama, LFM2, Apertus, Olmo 3, Hunyuan, Nemotron, Cline, Anthropic-style), the
 * format Ollama names for the model first. Policy: tolerant in what it reads, strict in
 * what it runs: never from reasoning, a cut-off reply, an example, a quote or a forbidden
 * call, for a tool that does not exist, or on another server than the one the call names.
 * A reply whose only call was drafted in its reasoning is told so.
 */
import { assertNever } from '../shared/errors.js';
import { isRecord } from '../shared/is-record.js';
import { isAttempt, scanReply, type Candidate } from './candidates.js';
import type { RawCall } from './formats.js';
import { buildHint, type Problem } from './hints.js';
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
  | { type: 'malformed'; hint: string; unresolved?: ToolCall[] };

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

/** A reply that is all reasoning, with a call drafted in it: the model meant to call but wrote it in the wrong place. */
function draftedOnly(visible: string, thinking: string, tools: ToolSpec[], knownServers: string[]): boolean {
  if (visible !== '' || thinking === '') return false;
  return scanReply(thinking).candidates.some((candidate) => isRealAttempt(candidate, tools, knownServers));
}

export function detectToolCalls(raw: string, tools: ToolSpec[], options: DetectOptions = {}): DetectResult {
  // A server with tools is configured whatever the caller listed.
  const knownServers = [...new Set([...(options.knownServers ?? []), ...tools.map((tool) => tool.server)])];
  const { visible, thinking } = stripThinking(raw);
  const scan = scanReply(visible, readerForParser(options.parser));
  const attempts = scan.candidates.filter((candidate) => isRealAttempt(candidate, tools, knownServers));
  const presented = attempts.length > 0 && presentedAsCalls(visible, attempts, scan.decorations, scan.explicit);
  const cutOff = scan.cutOffAt !== undefined && !hasExampleCue(visible.slice(0, scan.cutOffAt));
  const markerOnly = attempts.length === 0 && scan.opensWithCallMarker;
  if (cutOff || (options.truncated === true && (presented || markerOnly))) {
    return malformed([{ type: 'cut-off' }], tools);
  }
  if (presented) return runAttempts(attempts, tools, knownServers);
  if (markerOnly) return malformed([{ type: 'unparseable' }], tools);
  if (options.truncated !== true && draftedOnly(visible, thinking, tools, knownServers))
    return malformed([{ type: 'in-reasoning' }], tools);
  return { type: 'answer', text: answerText(visible, scan.candidates) };
}
