/**
 * Decides what a complete model reply asks for: an answer, tool calls (native
 * `tool_calls` first, else calls written as text), or a malformed attempt to be
 * corrected. Calls that cannot run carry a ready refusal for the model.
 */
import { detectToolCalls, resolveToolName } from './tool-call-parser.js';
import { errorResult } from './tool-execution.js';
import type { NativeToolCall, ToolCall, ToolResult, ToolSpec } from './types.js';

export interface PlannedCall {
  call: ToolCall;
  /** Set when the call must not run: the result to report instead. */
  refusal?: ToolResult;
}

export type ReplyOutcome =
  | { type: 'answer'; text: string }
  | { type: 'calls'; native: boolean; calls: PlannedCall[] }
  | { type: 'malformed'; native: false; hint: string; calls: PlannedCall[] };

export interface ReplyToInterpret {
  text: string;
  nativeCalls: NativeToolCall[];
  truncated: boolean;
}

function knownTools(tools: ToolSpec[]): string {
  return tools.map((tool) => `${tool.server}.${tool.name}`).join(', ');
}

function parseArguments(raw: NativeToolCall['function']['arguments']): Record<string, unknown> | undefined {
  if (typeof raw !== 'string') return raw;
  try {
    const value: unknown = JSON.parse(raw || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function planNativeCall(native: NativeToolCall, tools: ToolSpec[]): PlannedCall {
  const name = native.function.name;
  const spec = resolveToolName(name, undefined, tools);
  const args = parseArguments(native.function.arguments);
  const [server = '', tool = name] = spec ? [spec.server, spec.name] : name.split('__');
  const call: ToolCall = { server, tool, arguments: args ?? {} };
  if (!spec) return { call, refusal: errorResult(`Unknown tool "${name}". Available tools: ${knownTools(tools)}.`) };
  if (!args) return { call, refusal: errorResult(`The arguments for ${name} were not a JSON object; send them as one.`) };
  return { call };
}

export function interpretReply(reply: ReplyToInterpret, tools: ToolSpec[]): ReplyOutcome {
  if (reply.nativeCalls.length > 0) {
    return { type: 'calls', native: true, calls: reply.nativeCalls.map((call) => planNativeCall(call, tools)) };
  }
  const detected = detectToolCalls(reply.text, tools, { truncated: reply.truncated });
  switch (detected.type) {
    case 'answer':
      return detected;
    case 'calls':
      return { type: 'calls', native: false, calls: detected.calls.map((call) => ({ call })) };
    case 'malformed':
      return {
        type: 'malformed',
        native: false,
        hint: detected.hint,
        calls: (detected.unresolved ?? []).map((call) => ({ call, refusal: errorResult(detected.hint) })),
      };
  }
}
