/**
 * Ollama's native API as the scripted model speaks it (../../../../shared/ollama-api-notes.md):
 * `/api/chat` requests read into a conversation view, replies rendered as the NDJSON chunks
 * Ollama streams (tool calls in their own `done:false` chunk, metrics in the `done:true` one),
 * and the bodies of `/api/tags`, `/api/show`, `/api/version` and `/api/ps`. Pure.
 */
import { arrayOf, field, textOf, type ConversationView, type ScriptedReply } from './conversation.js';

export type WireObject = Record<string, unknown>;

/** The Ollama version the model claims: recent enough for every client's checks (codex asks). */
export const OLLAMA_VERSION = '0.14.0';
const MODIFIED_AT = '2026-01-15T12:00:00.000000000Z';
const CONTEXT_LENGTH = 40_960;

export function parseOllamaChat(body: unknown): ConversationView {
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

function chunk(model: string, message: WireObject, done: boolean): WireObject {
  return { model, created_at: new Date().toISOString(), message: { role: 'assistant', content: '', ...message }, done };
}

function finalChunk(model: string, promptChars: number, generated: number): WireObject {
  const promptEvalCount = Math.max(1, Math.ceil(promptChars / 4));
  return {
    ...chunk(model, {}, true),
    done_reason: 'stop',
    total_duration: (promptEvalCount + generated) * 1_000_000,
    load_duration: 1_000_000,
    prompt_eval_count: promptEvalCount,
    prompt_eval_duration: promptEvalCount * 1_000_000,
    eval_count: Math.max(1, generated),
    eval_duration: generated * 1_000_000,
  };
}

function wireCalls(reply: Extract<ScriptedReply, { type: 'calls' }>): WireObject[] {
  return reply.calls.map((call, index) => ({
    id: call.id,
    function: { index, name: call.tool.name, arguments: call.arguments },
  }));
}

/** The chunks of a streamed reply, each one NDJSON line's object, the final `done:true` one last. */
export function ollamaChunks(reply: ScriptedReply, model: string, promptChars: number): WireObject[] {
  if (reply.type === 'calls')
    return [chunk(model, { tool_calls: wireCalls(reply) }, false), finalChunk(model, promptChars, reply.calls.length)];
  const text = reply.chunks.map((content) => chunk(model, { content }, false));
  return [...text, finalChunk(model, promptChars, text.length)];
}

/** The one object of a `stream: false` reply. */
export function ollamaWhole(reply: ScriptedReply, model: string, promptChars: number): WireObject {
  const final = finalChunk(model, promptChars, reply.type === 'calls' ? reply.calls.length : reply.chunks.length);
  const message: WireObject =
    reply.type === 'calls'
      ? { role: 'assistant', content: '', tool_calls: wireCalls(reply) }
      : { role: 'assistant', content: reply.chunks.join('') };
  return { ...final, message };
}

function details(): WireObject {
  return {
    parent_model: '',
    format: 'gguf',
    family: 'qwen3',
    families: ['qwen3'],
    parameter_size: '8.2B',
    quantization_level: 'Q4_K_M',
  };
}

export function tagsBody(model: string): WireObject {
  const entry = { name: model, model, modified_at: MODIFIED_AT, size: 5_225_388_164, digest: 'b'.repeat(64) };
  return { models: [{ ...entry, details: details() }] };
}

/** `/api/show`: capabilities `completion` and `tools`, so every client uses native tool calls. */
export function showBody(model: string): WireObject {
  return {
    license: 'BENCH',
    modelfile: `FROM ${model}\n`,
    parameters: 'temperature 0.6',
    template: '{{- if .Tools }}{{ .Tools }}{{ end }}{{ .Prompt }}',
    details: details(),
    model_info: {
      'general.architecture': 'qwen3',
      'general.parameter_count': 8_190_735_360,
      'qwen3.context_length': CONTEXT_LENGTH,
    },
    capabilities: ['completion', 'tools'],
    modified_at: MODIFIED_AT,
  };
}

export function psBody(model: string): WireObject {
  return {
    models: [
      {
        name: model,
        model,
        size: 6_000_000_000,
        digest: 'b'.repeat(64),
        details: details(),
        expires_at: '2099-01-01T00:00:00Z',
        size_vram: 0,
        context_length: 4096,
      },
    ],
  };
}
