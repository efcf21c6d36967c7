/**
 * The fake Ollama's vocabulary: scripted reply and model types, and their rendering into
 * the exact JSON Ollama sends (chunk shapes, `/api/tags` and `/api/show` bodies, error
 * texts), per ../../../shared/ollama-api-notes.md. Pure: no sockets, no timers.
 */
import { createHash } from 'node:crypto';

/** A model the fake serves. */
export interface FakeModel {
  /** `llama3.2` is listed as `llama3.2:latest`, as Ollama lists it. */
  name: string;
  /**
   * `/api/show` capabilities. `null` leaves the field out, like servers before v0.6.4.
   * Default: `['completion', 'tools']`.
   */
  capabilities?: string[] | null;
  /** Default `llama`. */
  family?: string;
  /** Default `3.2B`. */
  parameterSize?: string;
  /** `model_info["<family>.context_length"]`; default 131072. */
  contextLength?: number;
  /** The built-in template parser `/api/show` names (v0.32.2 on); absent by default, as for a Modelfile template. */
  parser?: string;
}

/** A native tool call the model makes. */
export interface FakeToolCall {
  name: string;
  /** An object, as Ollama sends it, or a JSON string, as some wrappers do. Default `{}`. */
  arguments?: Record<string, unknown> | string;
  /** Default `call_<n>`, the shape recent Ollama versions send. */
  id?: string;
}

/** One scripted model reply. Every field is optional and they combine. */
export interface FakeReplySpec {
  /** The answer, split into token-sized chunks; an array gives the chunks exactly. */
  text?: string | string[];
  /** Reasoning in `message.thinking`, streamed before the text. */
  thinking?: string | string[];
  toolCalls?: FakeToolCall[];
  /** `chunk` (default): own `done:false` chunk before the final one. `done`: inside the final chunk. */
  toolCallsIn?: 'chunk' | 'done';
  /** Default `stop`; `length` for a reply cut off by `num_predict`/`num_ctx`. */
  doneReason?: string;
  /** Answer with this HTTP status and `{"error": error}` instead of a stream. */
  status?: number;
  /** The error body's text; with no `status`, the status is 500. */
  error?: string;
  /** After the chunks, one more line `{"error": streamError}` (the status is already 200), then end. */
  streamError?: string;
  /** Destroy the socket after this many chunks (0: before any byte, which clients see as a reset). */
  dropAfterChunks?: number;
  /**
   * Lines that are not JSON: `line` adds one (the first chunk cut short) after the first chunk;
   * `all` cuts every line short, so no chunk of the reply parses.
   */
  garble?: 'line' | 'all';
  /** Wait before the first chunk; the headers wait too, as they do while Ollama loads a model. */
  firstChunkDelayMs?: number;
  /** Wait between chunks. */
  chunkDelayMs?: number;
  /** After the chunks, keep the response open until the client goes away or the fake closes. */
  hang?: boolean;
  promptEvalCount?: number;
  evalCount?: number;
}

/** A chat request as the fake parsed it (the fields tests look at, plus anything else sent). */
export interface FakeChatRequest {
  model: string;
  messages: FakeWireMessage[];
  tools?: unknown[];
  options?: Record<string, unknown>;
  stream?: boolean;
  think?: unknown;
  format?: unknown;
  [field: string]: unknown;
}

export interface FakeWireMessage {
  role: string;
  content: string;
  thinking?: string;
  tool_calls?: Array<{ id?: string; function: { name: string; arguments: unknown } }>;
  tool_name?: string;
  /** Base64 images, for a model with `vision`. */
  images?: string[];
  [field: string]: unknown;
}

/** A reply: plain text, a spec, or computed from the request. */
export type FakeReply = string | FakeReplySpec | ((request: FakeChatRequest) => string | FakeReplySpec);

export type WireObject = Record<string, unknown>;

const MODIFIED_AT = '2025-07-01T12:00:00.000000000Z';

export function normalizeName(name: string): string {
  const lastSegment = name.slice(name.lastIndexOf('/') + 1);
  return (lastSegment.includes(':') ? name : `${name}:latest`).toLowerCase();
}

/** The full path Ollama prints in capability errors: `registry.ollama.ai/library/gemma:2b`. */
export function registryPath(name: string): string {
  const normalized = normalizeName(name);
  return normalized.includes('/') ? `registry.ollama.ai/${normalized}` : `registry.ollama.ai/library/${normalized}`;
}

export function capabilitiesOf(model: FakeModel): string[] | null {
  return model.capabilities === undefined ? ['completion', 'tools'] : model.capabilities;
}

function details(model: FakeModel): WireObject {
  const family = model.family ?? 'llama';
  return {
    parent_model: '',
    format: 'gguf',
    family,
    families: [family],
    parameter_size: model.parameterSize ?? '3.2B',
    quantization_level: 'Q4_K_M',
  };
}

export function tagsEntry(model: FakeModel): WireObject {
  const name = normalizeName(model.name);
  const digest = createHash('sha256').update(name).digest('hex');
  return { name, model: name, modified_at: MODIFIED_AT, size: 2_019_393_189, digest, details: details(model) };
}

/** The model's own longest context, as `/api/show` gives it. */
export function maximumContext(model: FakeModel): number {
  return model.contextLength ?? 131_072;
}

/**
 * One `/api/ps` entry (`api/types.go` `ProcessModelResponse`): the loaded model, with the context
 * it was given; `context_length` is left out as servers before it was added leave it out.
 */
export function psEntry(model: FakeModel, contextLength: number | undefined): WireObject {
  const { name, model: id, size, digest, details } = tagsEntry(model);
  // Loaded for `keep_alive`'s default five minutes, wholly in VRAM.
  const expiresAt = new Date(Date.now() + 5 * 60_000).toISOString();
  const loaded: WireObject = { name, model: id, size, digest, details, expires_at: expiresAt, size_vram: size };
  if (contextLength !== undefined) loaded.context_length = contextLength;
  return loaded;
}

export function showBody(model: FakeModel): WireObject {
  const family = model.family ?? 'llama';
  const capabilities = capabilitiesOf(model);
  const tools = capabilities?.includes('tools') ?? false;
  const body: WireObject = {
    license: 'FAKE LICENSE',
    modelfile: `# Modelfile generated by "ollama show"\nFROM ${normalizeName(model.name)}\n`,
    parameters: 'stop                           "<|eot_id|>"',
    // The `tools` capability is "the template references .Tools" (notes §3).
    template: tools ? '{{- if .Tools }}Tools: {{ .Tools }}{{ end }}{{ .Prompt }}' : '{{ .Prompt }}',
    details: details(model),
    model_info: {
      'general.architecture': family,
      'general.parameter_count': 3_212_749_888,
      [`${family}.context_length`]: maximumContext(model),
    },
    modified_at: MODIFIED_AT,
  };
  if (capabilities !== null) body.capabilities = capabilities;
  if (model.parser !== undefined) body.parser = model.parser;
  return body;
}

/** Token-sized pieces: each word with the whitespace before it, as tokenizers split text. */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+/g) ?? [];
}

function pieces(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? splitTokens(value) : value;
}

function wireToolCalls(calls: FakeToolCall[]): WireObject[] {
  return calls.map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    function: { index, name: call.name, arguments: call.arguments ?? {} },
  }));
}

export function chunk(model: string, message: WireObject, done: boolean): WireObject {
  return { model, created_at: new Date().toISOString(), message: { role: 'assistant', content: '', ...message }, done };
}

/** The metrics of the final chunk, in nanoseconds like Ollama's. */
function metrics(spec: FakeReplySpec, generated: number, promptChars: number): WireObject {
  const promptEvalCount = spec.promptEvalCount ?? Math.max(1, Math.ceil(promptChars / 4));
  const evalCount = spec.evalCount ?? Math.max(1, generated);
  const load = 1_334_875;
  const promptEval = promptEvalCount * 1_000_000;
  const evalDuration = evalCount * 20_000_000;
  return {
    total_duration: load + promptEval + evalDuration + 2_000_000,
    load_duration: load,
    prompt_eval_count: promptEvalCount,
    prompt_eval_duration: promptEval,
    eval_count: evalCount,
    eval_duration: evalDuration,
  };
}

/** Every chunk of a streamed reply, the final `done:true` one included. */
export function renderChunks(spec: FakeReplySpec, model: string, promptChars: number): WireObject[] {
  const thinking = pieces(spec.thinking).map((text) => chunk(model, { thinking: text }, false));
  const text = pieces(spec.text).map((content) => chunk(model, { content }, false));
  const calls = spec.toolCalls && spec.toolCalls.length > 0 ? wireToolCalls(spec.toolCalls) : undefined;
  const inDone = spec.toolCallsIn === 'done';
  const callChunk = calls && !inDone ? [chunk(model, { tool_calls: calls }, false)] : [];
  const final = {
    ...chunk(model, calls && inDone ? { tool_calls: calls } : {}, true),
    done_reason: spec.doneReason ?? 'stop',
    ...metrics(spec, thinking.length + text.length + callChunk.length, promptChars),
  };
  return [...thinking, ...text, ...callChunk, final];
}

/** The single object of a `stream: false` reply. */
export function renderWhole(spec: FakeReplySpec, model: string, promptChars: number): WireObject {
  const chunks = renderChunks(spec, model, promptChars);
  const final = chunks[chunks.length - 1] ?? {};
  const message: WireObject = { role: 'assistant', content: pieces(spec.text).join('') };
  const thinking = pieces(spec.thinking).join('');
  if (thinking !== '') message.thinking = thinking;
  if (spec.toolCalls && spec.toolCalls.length > 0) message.tool_calls = wireToolCalls(spec.toolCalls);
  return { ...final, message };
}

/** The empty-`messages` request only loads the model. */
export function loadReply(model: string): WireObject {
  return { ...chunk(model, {}, true), done_reason: 'load' };
}

export function asSpec(reply: string | FakeReplySpec): FakeReplySpec {
  return typeof reply === 'string' ? { text: reply } : reply;
}

/** Short-hands for common scripted replies. */
export const replies = {
  text: (text: string, extra: FakeReplySpec = {}): FakeReplySpec => ({ ...extra, text }),
  toolCalls: (calls: FakeToolCall[], extra: FakeReplySpec = {}): FakeReplySpec => ({ ...extra, toolCalls: calls }),
  error: (status: number, error: string): FakeReplySpec => ({ status, error }),
  modelNotFound: (model: string): FakeReplySpec => ({ status: 404, error: `model '${model}' not found` }),
  noToolSupport: (model: string): FakeReplySpec => ({
    status: 400,
    error: `${registryPath(model)} does not support tools`,
  }),
} as const;
