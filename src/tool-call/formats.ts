/**
 * Recognises the call shapes models write once their text is parsed: our own
 * `{"action": "use_tool", …}`, `{"name", "arguments"}`, OpenAI `{"function": {…}}` and
 * `{"tool_calls": […]}`, LangChain `{"action", "action_input"}`, and answer wrappers.
 * Policy: shapes are validated with zod; an object that fits none is content, not a call.
 */
import * as z from 'zod';

/** A call as written, before its name is routed to a real tool. */
export interface RawCall {
  name: string;
  server?: string;
  args: unknown;
  /** Argument keys whose values are template text (`<arg_value>3</arg_value>`), typed later by the tool's schema. */
  textKeys?: string[];
}

export type Classified =
  | {
      kind: 'calls';
      calls: RawCall[];
      /** Shapes that prose can imitate: unknown names mean content. */ weak?: boolean;
    }
  | { kind: 'answer'; text: string }
  | { kind: 'content' }
  | { kind: 'broken' };

// Every spelling of "the arguments" seen from small models, most common first.
const ARG_KEYS = ['arguments', 'parameters', 'params', 'args', 'input', 'action_input', 'tool_input'];
// Keys that may sit beside a call without making it something else.
// `tool_call_id`: Command R7B numbers the calls of its action list.
const META_KEYS = ['id', 'type', 'server', 'thought', 'thoughts', 'reasoning', 'reason', 'tool_call_id', 'call_id'];
const CALL_KEYS = new Set([...ARG_KEYS, ...META_KEYS, 'name', 'function', 'tool', 'tool_name']);
const USE_VERBS = new Set([
  'use_tool',
  'tool_call',
  'call_tool',
  'use',
  'call',
  'tool',
  'tool_use',
  'function_call',
  'invoke',
]);
const ANSWER_VERBS = new Set(['final_answer', 'answer', 'respond', 'response', 'reply', 'final', 'finish', 'message']);
const ANSWER_KEYS = ['answer', 'message', 'text', 'response', 'content', 'action_input', 'output', 'final_answer'];
const FUNCTION_TYPES = new Set(['function', 'tool_use', 'tool_call', 'tool']);

const Name = z.string().trim().min(1).max(200);
const Entries = z.record(z.string(), z.unknown());
const ActionShape = z.looseObject({ action: z.string() });
const UseToolShape = z.looseObject({
  tool: Name.optional(),
  tool_name: Name.optional(),
  name: Name.optional(),
  server: z.string().optional(),
});
const EnvelopeShape = z.looseObject({ tool_calls: z.array(z.unknown()).min(1) });
const FunctionObjectShape = z.looseObject({ function: z.looseObject({ name: Name }) });
const NamedShape = z.looseObject({
  name: Name.optional(),
  function: Name.optional(),
  tool: Name.optional(),
  tool_name: Name.optional(),
  server: z.string().optional(),
  type: z.string().optional(),
});

type Entries = z.infer<typeof Entries>;

function verb(action: string): string {
  return action
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

interface FoundArgs {
  present: boolean;
  value: unknown;
  /** `parameters` holding a JSON Schema: a tool definition being echoed, not a call. */
  schema: boolean;
}

function argsOf(object: Entries): FoundArgs {
  for (const key of ARG_KEYS) {
    const value = object[key];
    if (value === undefined) continue;
    const shape = Entries.safeParse(value);
    const schema = key === 'parameters' && shape.success && shape.data.type === 'object' && 'properties' in shape.data;
    return { present: true, value, schema };
  }
  return { present: false, value: undefined, schema: false };
}

function useTool(object: Entries): Classified {
  const shape = UseToolShape.safeParse(object);
  const name = shape.success ? (shape.data.tool ?? shape.data.tool_name ?? shape.data.name) : undefined;
  if (!shape.success || name === undefined) return { kind: 'broken' };
  const args = argsOf(object);
  // Some models flatten the arguments into the call object itself.
  const skip = new Set([...CALL_KEYS, 'action']);
  const flattened = Object.fromEntries(Object.entries(object).filter(([key]) => !skip.has(key)));
  return { kind: 'calls', calls: [{ name, server: shape.data.server, args: args.present ? args.value : flattened }] };
}

function byAction(object: Entries, action: string): Classified {
  const kind = verb(action);
  if (USE_VERBS.has(kind)) return useTool(object);
  if (ANSWER_VERBS.has(kind)) {
    const text = ANSWER_KEYS.map((key) => object[key]).find((value) => typeof value === 'string');
    return typeof text === 'string' ? { kind: 'answer', text } : { kind: 'content' };
  }
  // LangChain's JSON agent: the action is the tool's name.
  if ('action_input' in object && action.trim() !== '') {
    return { kind: 'calls', calls: [{ name: action.trim(), args: object.action_input }] };
  }
  return { kind: 'content' };
}

function fromFunctionObject(object: Entries): Classified | undefined {
  const shape = FunctionObjectShape.safeParse(object);
  if (!shape.success) return undefined;
  const inner = argsOf(shape.data.function);
  const outer = argsOf(object);
  if (inner.schema || outer.schema) return { kind: 'content' };
  return {
    kind: 'calls',
    calls: [{ name: shape.data.function.name, args: inner.present ? inner.value : outer.value }],
  };
}

function fromNamed(object: Entries): Classified | undefined {
  const shape = NamedShape.safeParse(object);
  if (!shape.success || !Object.keys(object).every((key) => CALL_KEYS.has(key))) return undefined;
  const { name, function: fn, tool, tool_name: toolName, server, type } = shape.data;
  if (type !== undefined && !FUNCTION_TYPES.has(type)) return undefined;
  const args = argsOf(object);
  if (args.schema) return undefined;
  const toolKey = tool ?? toolName;
  // `name` and `function` alone are common data keys: require the arguments beside them.
  const called = args.present ? (toolKey ?? name ?? fn) : server !== undefined ? toolKey : undefined;
  if (called === undefined) return undefined;
  return { kind: 'calls', calls: [{ name: called, server, args: args.value }] };
}

function fromObject(object: Entries): Classified {
  const action = ActionShape.safeParse(object);
  if (action.success) return byAction(object, action.data.action);
  return fromFunctionObject(object) ?? fromNamed(object) ?? { kind: 'content' };
}

function fromEnvelope(items: unknown[]): Classified {
  const calls: RawCall[] = [];
  for (const item of items) {
    const entries = Entries.safeParse(item);
    const classified = entries.success ? fromObject(entries.data) : undefined;
    if (classified?.kind !== 'calls') return { kind: 'broken' };
    calls.push(...classified.calls);
  }
  return { kind: 'calls', calls };
}

function fromArray(items: unknown[]): Classified {
  if (items.length === 0) return { kind: 'content' };
  const classified = items.map((item) => {
    const entries = Entries.safeParse(item);
    return entries.success ? fromObject(entries.data) : undefined;
  });
  const calls = classified.flatMap((item) => (item?.kind === 'calls' ? item.calls : []));
  if (classified.every((item) => item?.kind === 'calls')) return { kind: 'calls', calls };
  // A list mixing calls with other things was meant as calls but cannot be run as written.
  return calls.length > 0 ? { kind: 'broken' } : { kind: 'content' };
}

/** What a parsed JSON value means: calls, an answer wrapper, or plain content. */
export function classifyValue(value: unknown): Classified {
  if (Array.isArray(value)) return fromArray(value);
  const entries = Entries.safeParse(value);
  if (!entries.success) return { kind: 'content' };
  const envelope = EnvelopeShape.safeParse(entries.data);
  if (envelope.success) return fromEnvelope(envelope.data.tool_calls);
  return fromObject(entries.data);
}

const QUOTED_KEY = /["'](action|tool|tool_name|tool_calls|function|name|arguments|parameters|params)["']\s*:/g;
const PYTHONIC_START = /^\[\s*[A-Za-z_][\w.]*\s*\(/;
// Unparseable text is only treated as an attempted call when it is plainly one.
const LOOKS_LIKE_CALL_LIMIT = 8000;

/** Whether text that failed to parse (or was cut off) was meant as a tool call. */
export function looksLikeCall(text: string): boolean {
  const head = text.slice(0, LOOKS_LIKE_CALL_LIMIT);
  if (PYTHONIC_START.test(head)) return true;
  const keys = new Set<string>();
  QUOTED_KEY.lastIndex = 0;
  for (let match = QUOTED_KEY.exec(head); match !== null; match = QUOTED_KEY.exec(head)) keys.add(match[1] ?? '');
  if (keys.has('action')) return /["']use_tool["']/.test(head);
  if (keys.has('tool') || keys.has('tool_name') || keys.has('tool_calls') || keys.has('function')) return true;
  return keys.has('name') && (keys.has('arguments') || keys.has('parameters') || keys.has('params'));
}
