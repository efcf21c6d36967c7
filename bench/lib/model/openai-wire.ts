/**
 * The OpenAI-compatible Chat Completions API as the scripted model speaks it (the dialect
 * Ollama's `/v1` layer serves): requests read into a conversation view, streamed replies as
 * `chat.completion.chunk` objects (a tool call's name first, its arguments in pieces after),
 * `finish_reason` `tool_calls` or `stop`, the usage chunk when asked, and whole replies. Pure.
 */
import { arrayOf, field, textOf, type ConversationView, type ScriptedReply } from './conversation.js';
import type { WireObject } from './ollama-wire.js';

export function parseChatCompletions(body: unknown): ConversationView {
  const messages = arrayOf(field(body, 'messages'));
  const lastUser = messages.findLastIndex((message) => field(message, 'role') === 'user');
  return {
    userTexts: messages.filter((message) => field(message, 'role') === 'user').map((m) => textOf(field(m, 'content'))),
    tools: arrayOf(field(body, 'tools')).flatMap((tool) => {
      const name = field(field(tool, 'function'), 'name');
      return typeof name === 'string' ? [{ name }] : [];
    }),
    toolResults: messages
      .slice(lastUser + 1)
      .filter((message) => field(message, 'role') === 'tool')
      .map((message) => textOf(field(message, 'content'))),
  };
}

function usage(promptChars: number, generated: number): WireObject {
  const prompt = Math.max(1, Math.ceil(promptChars / 4));
  return { prompt_tokens: prompt, completion_tokens: generated, total_tokens: prompt + generated };
}

interface ChunkContext {
  id: string;
  model: string;
  created: number;
}

function chunk(context: ChunkContext, delta: WireObject, finishReason: string | null): WireObject {
  return {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** Halves of a string: arguments arrive in more than one piece, as they do from a real server. */
function halves(text: string): [string, string] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

function callDeltas(context: ChunkContext, reply: Extract<ScriptedReply, { type: 'calls' }>): WireObject[] {
  return reply.calls.flatMap((call, index) => {
    const [first, second] = halves(JSON.stringify(call.arguments));
    const opening = { index, id: call.id, type: 'function', function: { name: call.tool.name, arguments: '' } };
    return [first, second].reduce(
      (chunks, piece) => [...chunks, chunk(context, { tool_calls: [{ index, function: { arguments: piece } }] }, null)],
      [chunk(context, { tool_calls: [opening] }, null)],
    );
  });
}

export interface StreamOptions {
  model: string;
  promptChars: number;
  /** `stream_options.include_usage`: one more chunk, with no choices and the usage. */
  includeUsage: boolean;
}

/** The `data:` objects of a streamed reply, in order; `[DONE]` follows them on the wire. */
export function chatCompletionChunks(reply: ScriptedReply, options: StreamOptions): WireObject[] {
  const context = { id: 'chatcmpl-bench', model: options.model, created: Math.floor(Date.now() / 1000) };
  const role = chunk(context, { role: 'assistant', content: '' }, null);
  const body =
    reply.type === 'calls'
      ? callDeltas(context, reply)
      : reply.chunks.map((content) => chunk(context, { content }, null));
  const finish = chunk(context, {}, reply.type === 'calls' ? 'tool_calls' : 'stop');
  const generated = reply.type === 'calls' ? reply.calls.length : reply.chunks.length;
  const tail = options.includeUsage
    ? [{ ...chunk(context, {}, null), choices: [], usage: usage(options.promptChars, generated) }]
    : [];
  return [role, ...body, finish, ...tail];
}

/** A `stream: false` reply. */
export function chatCompletionWhole(reply: ScriptedReply, model: string, promptChars: number): WireObject {
  const message: WireObject =
    reply.type === 'calls'
      ? {
          role: 'assistant',
          content: null,
          tool_calls: reply.calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.tool.name, arguments: JSON.stringify(call.arguments) },
          })),
        }
      : { role: 'assistant', content: reply.chunks.join('') };
  const generated = reply.type === 'calls' ? reply.calls.length : reply.chunks.length;
  return {
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: reply.type === 'calls' ? 'tool_calls' : 'stop' }],
    usage: usage(promptChars, generated),
  };
}

export function modelsBody(model: string): WireObject {
  return { object: 'list', data: [{ id: model, object: 'model', created: 1_768_478_400, owned_by: 'library' }] };
}
