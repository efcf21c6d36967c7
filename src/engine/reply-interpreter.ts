/**
 * Decides what a complete model reply asks for: an answer, or calls to run (native
 * calls first, else calls written as text). A reply whose call cannot run carries a
 * correction for the model, and each named call that cannot run a ready refusal.
 */
import { detectToolCalls, resolveToolName } from '../tool-call/detector.js';
import type { WithheldCall } from '../tool-call/hints.js';
import { errorResult } from './tool-execution.js';
import { displayName, fromModelName } from '../vocabulary/tool-naming.js';
import type { NativeToolCall, ToolCall, ToolResult, ToolSpec } from '../vocabulary/types.js';

export interface PlannedCall {
  call: ToolCall;
  /** Set when the call must not run: the result to report instead. */
  refusal?: ToolResult;
}

export type ReplyPlan =
  | { type: 'answer'; text: string }
  /**
   * `correction`: the reply tried to call a tool and got it wrong; the model is told how to fix it.
   * `notice`: a call it wrote was withheld (drafted in its reasoning, cut off): the user is told too.
   */
  | { type: 'calls'; native: boolean; calls: PlannedCall[]; correction?: string; notice?: string };

export interface ReplyToInterpret {
  text: string;
  nativeCalls: NativeToolCall[];
  truncated: boolean;
  /** The template parser Ollama names for the model: text calls in its format are read first. */
  parser?: string;
  /** The reasoning Ollama sent in its own field: a call drafted there is withheld, and the model told. */
  thinking?: string;
}

function planNativeCall(native: NativeToolCall, tools: ToolSpec[], knownServers: string[]): PlannedCall {
  const { name, arguments: args } = native;
  const spec = resolveToolName(name, undefined, tools, knownServers);
  const { server, tool } = spec ? { server: spec.server, tool: spec.name } : fromModelName(name);
  const call: ToolCall = { server, tool, arguments: args ?? {} };
  if (!spec)
    return {
      call,
      refusal: errorResult(`Unknown tool "${name}". Available tools: ${tools.map(displayName).join(', ')}.`),
    };
  if (!args)
    return { call, refusal: errorResult(`The arguments for ${name} were not a JSON object; send them as one.`) };
  return { call };
}

/** Said to the model when the length limit cut its reply: nothing of it ran. */
const CUT_OFF =
  'Your reply was cut off by the length limit, so none of its tool calls was run. ' +
  'Call the tools again, with shorter arguments if they were long.';

/** The user's line for a call that was withheld, in the words of what the model is asked to do. */
export function withheldNotice({ type, tools }: WithheldCall): string {
  const what = tools.length === 0 ? 'A tool call was' : `${tools.join(', ')} ${tools.length === 1 ? 'was' : 'were'}`;
  return type === 'in-reasoning'
    ? `${what} not run: the model wrote the call inside its reasoning; it was asked to write it in its reply.`
    : `${what} not run: the reply ended before the call was complete; the model was asked to send it again.`;
}

/**
 * `configuredServers`: every server of the configuration, running or not: a call that names one
 * runs only that server's tool, never one of the same name elsewhere.
 */
export function interpretReply(
  reply: ReplyToInterpret,
  tools: ToolSpec[],
  configuredServers: string[] = [],
): ReplyPlan {
  const knownServers = [...new Set([...configuredServers, ...tools.map((tool) => tool.server)])];
  if (reply.nativeCalls.length > 0) {
    const calls = reply.nativeCalls.map((call) => planNativeCall(call, tools, knownServers));
    if (!reply.truncated) return { type: 'calls', native: true, calls };
    // Security: a reply cut off by the length limit may hold half a batch or half an argument: none of it runs.
    const refusal = errorResult(CUT_OFF);
    const notice = withheldNotice({ type: 'cut-off', tools: reply.nativeCalls.map((call) => call.name) });
    const refused = calls.map(({ call }) => ({ call, refusal }));
    return { type: 'calls', native: true, calls: refused, correction: CUT_OFF, notice };
  }
  const detected = detectToolCalls(reply.text, tools, {
    truncated: reply.truncated,
    knownServers,
    parser: reply.parser,
    reasoning: reply.thinking,
  });
  switch (detected.type) {
    case 'answer':
      return detected;
    case 'calls':
      return { type: 'calls', native: false, calls: detected.calls.map((call) => ({ call })) };
    case 'malformed':
      return {
        type: 'calls',
        native: false,
        correction: detected.hint,
        calls: (detected.unresolved ?? []).map((call) => ({ call, refusal: errorResult(detected.hint) })),
        ...(detected.withheld ? { notice: withheldNotice(detected.withheld) } : {}),
      };
  }
}
