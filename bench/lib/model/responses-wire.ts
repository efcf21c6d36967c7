/**
 * The OpenAI Responses API (`/v1/responses`) as the scripted model speaks it: it is what
 * `codex --oss` calls on Ollama. Requests' `input` items read into a conversation view (tools
 * may be grouped in a `namespace`, as codex groups each MCP server's); streamed replies as the
 * SSE events a client folds into output items, `response.completed` last; whole replies too. Pure.
 */
import { arrayOf, field, textOf, type ConversationView, type OfferedTool, type ScriptedReply } from './conversation.js';
import type { WireObject } from './ollama-wire.js';

function offeredTools(tools: unknown[]): OfferedTool[] {
  return tools.flatMap((tool): OfferedTool[] => {
    const name = field(tool, 'name');
    if (typeof name !== 'string') return [];
    if (field(tool, 'type') === 'namespace')
      return arrayOf(field(tool, 'tools')).flatMap((inner) => {
        const innerName = field(inner, 'name');
        return typeof innerName === 'string' ? [{ name: innerName, namespace: name }] : [];
      });
    return field(tool, 'type') === 'function' ? [{ name }] : [];
  });
}

const isUserMessage = (item: unknown): boolean =>
  field(item, 'role') === 'user' && (field(item, 'type') ?? 'message') === 'message';

export function parseResponses(body: unknown): ConversationView {
  const input = field(body, 'input');
  const items = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : arrayOf(input);
  const lastUser = items.findLastIndex(isUserMessage);
  return {
    userTexts: items.filter(isUserMessage).map((item) => textOf(field(item, 'content'))),
    tools: offeredTools(arrayOf(field(body, 'tools'))),
    toolResults: items
      .slice(lastUser + 1)
      .filter((item) => field(item, 'type') === 'function_call_output')
      .map((item) => textOf(field(item, 'output'))),
  };
}

/** The output items of a reply, as they stand once complete. */
function outputItems(reply: ScriptedReply): WireObject[] {
  if (reply.type === 'text') {
    const content = [{ type: 'output_text', text: reply.chunks.join(''), annotations: [] }];
    return [{ type: 'message', id: 'msg_bench', role: 'assistant', status: 'completed', content }];
  }
  return reply.calls.map((call) => ({
    type: 'function_call',
    id: `fc_${call.id}`,
    call_id: call.id,
    name: call.tool.name,
    ...(call.tool.namespace === undefined ? {} : { namespace: call.tool.namespace }),
    arguments: JSON.stringify(call.arguments),
    status: 'completed',
  }));
}

/** Events of one item between its `added` and `done`: the text's deltas, or the arguments'. */
function itemDeltas(item: WireObject, reply: ScriptedReply, outputIndex: number): WireObject[] {
  const itemId = item.id;
  if (item.type === 'message' && reply.type === 'text')
    return reply.chunks.map((delta) => ({
      type: 'response.output_text.delta',
      item_id: itemId,
      output_index: outputIndex,
      content_index: 0,
      delta,
    }));
  const args = String(item.arguments);
  return [
    { type: 'response.function_call_arguments.delta', item_id: itemId, output_index: outputIndex, delta: args },
    { type: 'response.function_call_arguments.done', item_id: itemId, output_index: outputIndex, arguments: args },
  ];
}

function inProgress(item: WireObject): WireObject {
  return item.type === 'message'
    ? { ...item, status: 'in_progress', content: [] }
    : { ...item, status: 'in_progress', arguments: '' };
}

function responseObject(model: string, status: string, output: WireObject[], usage?: WireObject): WireObject {
  const base = { id: 'resp_bench', object: 'response', created_at: Math.floor(Date.now() / 1000), model };
  return { ...base, status, output, ...(usage ? { usage } : {}) };
}

function usageOf(reply: ScriptedReply, promptChars: number): WireObject {
  const input = Math.max(1, Math.ceil(promptChars / 4));
  const output = reply.type === 'calls' ? reply.calls.length : reply.chunks.length;
  return { input_tokens: input, output_tokens: output, total_tokens: input + output };
}

/** Every SSE event of a streamed reply, `response.created` first and `response.completed` last. */
export function responsesEvents(reply: ScriptedReply, model: string, promptChars: number): WireObject[] {
  const items = outputItems(reply);
  const perItem = items.flatMap((item, index) => [
    { type: 'response.output_item.added', output_index: index, item: inProgress(item) },
    ...itemDeltas(item, reply, index),
    { type: 'response.output_item.done', output_index: index, item },
  ]);
  const events = [
    { type: 'response.created', response: responseObject(model, 'in_progress', []) },
    ...perItem,
    { type: 'response.completed', response: responseObject(model, 'completed', items, usageOf(reply, promptChars)) },
  ];
  return events.map((event, index) => ({ ...event, sequence_number: index }));
}

/** A `stream: false` reply. */
export function responsesWhole(reply: ScriptedReply, model: string, promptChars: number): WireObject {
  return responseObject(model, 'completed', outputItems(reply), usageOf(reply, promptChars));
}
