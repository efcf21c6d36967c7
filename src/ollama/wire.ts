/**
 * Translation between the engine's types and Ollama's native `/api/chat` wire shapes.
 * Policy: what arrives is read defensively (tool-call arguments as an object or a JSON
 * string, metrics possibly absent); what is sent back uses the only forms Ollama decodes.
 * Ollama's shapes stop here: the rest of the program sees only the types in chat/types.ts.
 */
import type { ChatRequest, Message, Options, ShowResponse, Tool } from 'ollama';
import { unseenImageNote } from '../vocabulary/unseen-image.js';
import type {
  ChatMessage,
  LlmCapabilities,
  LlmChunk,
  LlmRequest,
  LlmToolDefinition,
  NativeToolCall,
  ThinkSetting,
  ToolImage,
} from '../vocabulary/types.js';
import type { OllamaSettings } from '../config/types.js';
import { assertNever } from '../shared/errors.js';
import { isRecord } from '../shared/is-record.js';

/**
 * The body as sent: the package's `ChatRequest` lacks `truncate` and the `max` level of `think`,
 * which Ollama's `/api/chat` takes (the package passes the body on as it is).
 */
export type StreamingChatRequest = Omit<ChatRequest, 'think'> & {
  stream: true;
  truncate: false;
  think?: ThinkSetting;
};

const NS_PER_MS = 1_000_000;

interface WireToolCall {
  id?: string;
  function: { name: string; arguments: Record<string, unknown> };
}

function toWireToolCall(call: NativeToolCall): WireToolCall {
  // Ollama decodes `arguments` only as an object: arguments that were not one go back empty.
  const wire: WireToolCall = { function: { name: call.name, arguments: call.arguments ?? {} } };
  if (call.id !== undefined) wire.id = call.id;
  return wire;
}

function toWireTool(tool: LlmToolDefinition): Tool {
  // The package's `Tool` type is narrower than JSON Schema; the schema is sent verbatim.
  return { type: 'function', function: tool } as unknown as Tool;
}

/**
 * A message's images go in Ollama's `images` (the package sends them base64) for a model that
 * can see; a model that cannot gets a note for each instead, since Ollama refuses images for it
 * ("this model is missing data required for image input") and the whole request would fail.
 */
function withImages(wire: Message, images: ToolImage[] | undefined, fromTool: boolean, vision: boolean): Message {
  if (!images || images.length === 0) return wire;
  // Security: bytes, not strings. The `ollama` package reads a string image as a file path when
  // such a file exists, and the data is a server's text.
  if (vision) return { ...wire, images: images.map((image) => Buffer.from(image.data, 'base64')) };
  const notes = images.map((image) => unseenImageNote(image, fromTool));
  return { ...wire, content: [wire.content, ...notes].join('\n') };
}

/** `vision`: whether the model reads images (`/api/show`'s `vision` capability). */
export function toWireMessage(message: ChatMessage, vision = false): Message {
  switch (message.role) {
    case 'system':
      return { role: message.role, content: message.content };
    case 'user':
      return withImages(
        { role: 'user', content: message.content },
        message.images,
        message.toolResult === true,
        vision,
      );
    case 'assistant': {
      const wire: Message = { role: 'assistant', content: message.content };
      // Ollama's tool-calling docs: the reasoning that led to the calls goes back with them.
      if (message.thinking) wire.thinking = message.thinking;
      if (message.toolCalls && message.toolCalls.length > 0) wire.tool_calls = message.toolCalls.map(toWireToolCall);
      return wire;
    }
    case 'tool':
      return withImages(
        { role: 'tool', content: message.content, tool_name: message.toolName },
        message.images,
        true,
        vision,
      );
    default:
      return assertNever(message);
  }
}

/** True when a request carries images: only then does the body depend on whether the model can see. */
export function carriesImages(request: LlmRequest): boolean {
  return request.messages.some((message) => 'images' in message && (message.images?.length ?? 0) > 0);
}

/** The body as the log keeps it: each image as its length, not megabytes of base64 on every request. */
export function loggableBody(body: StreamingChatRequest): StreamingChatRequest {
  if (!body.messages?.some((message) => message.images)) return body;
  const messages = body.messages.map((message) =>
    message.images ? { ...message, images: message.images.map((image) => `<image, ${image.length} bytes>`) } : message,
  );
  return { ...body, messages };
}

/** The body as the package's `chat` takes it: the fields it does not declare travel as they are. */
export function asPackageRequest(body: StreamingChatRequest): ChatRequest & { stream: true } {
  return body as unknown as ChatRequest & { stream: true };
}

export function buildChatBody(settings: OllamaSettings, request: LlmRequest, vision = false): StreamingChatRequest {
  const body: StreamingChatRequest = {
    model: request.model ?? settings.model,
    messages: request.messages.map((message) => toWireMessage(message, vision)),
    stream: true,
    // Over the context, Ollama then refuses the request instead of silently dropping its oldest
    // part (system prompt and tools first); the chatbot compacts and tries again.
    truncate: false,
    // num_ctx as the user set it, on every request; unset, Ollama loads the model with its own
    // default and the budget follows what `/api/ps` says it allocated. User options come after.
    options: {
      ...(settings.numCtx === undefined ? {} : { num_ctx: settings.numCtx }),
      ...settings.options,
      ...request.options,
    } as Partial<Options>,
  };
  if (request.tools && request.tools.length > 0) body.tools = request.tools.map(toWireTool);
  if (request.think !== undefined) body.think = request.think;
  if (request.format !== undefined) body.format = request.format;
  return body;
}

/** Arguments arrive as an object, or from some models as a string of JSON; absent means none. */
function readArguments(args: unknown): Record<string, unknown> | undefined {
  if (args === undefined || args === null) return {};
  if (isRecord(args)) return args;
  if (typeof args !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(args || '{}');
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function toNativeCall(entry: unknown): NativeToolCall | undefined {
  if (!isRecord(entry) || !isRecord(entry.function)) return undefined;
  const { name, arguments: args } = entry.function;
  if (typeof name !== 'string' || name === '') return undefined;
  const call: NativeToolCall = { name, arguments: readArguments(args) };
  if (typeof entry.id === 'string') call.id = entry.id;
  return call;
}

export function readToolCalls(raw: unknown): NativeToolCall[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry) => {
    const call = toNativeCall(entry);
    return call ? [call] : [];
  });
}

type DoneChunk = Extract<LlmChunk, { type: 'done' }>;

function doneChunk(response: Record<string, unknown>): DoneChunk {
  const reason = response.done_reason;
  const chunk: DoneChunk = { type: 'done', doneReason: typeof reason === 'string' && reason !== '' ? reason : 'stop' };
  // Metrics are `omitempty` on the wire: a cached prompt or a load-only reply leaves some out.
  if (typeof response.eval_count === 'number') chunk.evalCount = response.eval_count;
  if (typeof response.total_duration === 'number')
    chunk.totalDurationMs = Math.round(response.total_duration / NS_PER_MS);
  if (typeof response.prompt_eval_count === 'number') chunk.promptEvalCount = response.prompt_eval_count;
  if (typeof response.eval_duration === 'number') chunk.evalDurationMs = response.eval_duration / NS_PER_MS;
  if (typeof response.load_duration === 'number') chunk.loadDurationMs = response.load_duration / NS_PER_MS;
  return chunk;
}

/**
 * One NDJSON object → the engine's chunks, in stream order. Tool calls are read from every
 * object, the `done: true` one included: some model/version pairs send them only there.
 */
export function toLlmChunks(raw: Record<string, unknown>): LlmChunk[] {
  const chunks: LlmChunk[] = [];
  const message = isRecord(raw.message) ? raw.message : {};
  if (typeof message.thinking === 'string' && message.thinking !== '')
    chunks.push({ type: 'thinking', text: message.thinking });
  if (typeof message.content === 'string' && message.content !== '')
    chunks.push({ type: 'content', text: message.content });
  const calls = readToolCalls(message.tool_calls);
  if (calls.length > 0) chunks.push({ type: 'tool_calls', calls });
  if (raw.done === true) chunks.push(doneChunk(raw));
  return chunks;
}

/** Servers before v0.6.4 send no `capabilities`: nothing is assumed then. */
export function readCapabilities(show: ShowResponse): LlmCapabilities {
  const raw: unknown = show;
  const list = isRecord(raw) && Array.isArray(raw.capabilities) ? raw.capabilities : [];
  const capabilities: LlmCapabilities = { tools: list.includes('tools'), thinking: list.includes('thinking') };
  // `vision` is optional in LlmCapabilities: it is set only for a model that has it.
  if (list.includes('vision')) capabilities.vision = true;
  const parser = isRecord(raw) ? raw.parser : undefined;
  if (typeof parser === 'string' && parser !== '') capabilities.parser = parser;
  return capabilities;
}

/** Ollama's default tag is `latest`: `llama3.2` and `llama3.2:latest` name the same model. */
export function normalizeModelName(name: string): string {
  const lower = name.trim().toLowerCase();
  const lastSegment = lower.slice(lower.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? lower : `${lower}:latest`;
}

export function sameModel(a: string, b: string): boolean {
  return normalizeModelName(a) === normalizeModelName(b);
}
