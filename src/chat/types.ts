/**
 * The types at the seams of the conversation engine: what flows between the model
 * client, the orchestrator, the MCP host and the two front ends (REPL and `ask`).
 */

/** JSON Schema of a tool's input, as the server advertised it. */
export interface JsonSchemaObject {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolSpec {
  server: string;
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  annotations?: ToolAnnotations;
}

/** A request to run one tool, however the model expressed it. */
export interface ToolCall {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
}

export interface ToolResult {
  isError: boolean;
  /** Text for the model: capped, with provenance. */
  forModel: string;
  /** One line for the screen: control characters and ANSI stripped. */
  forDisplay: string;
  durationMs: number;
}

/** What the orchestrator needs from the MCP host. `callTool` never throws. */
export interface ToolHost {
  listTools(): ToolSpec[];
  callTool(call: ToolCall, signal?: AbortSignal): Promise<ToolResult>;
}

/** A tool call as Ollama's native API carries it. */
export interface NativeToolCall {
  function: { name: string; arguments: Record<string, unknown> | string };
  id?: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  /** `toolResult`: a text-mode tool result fed back as a user message (never a window boundary). */
  | { role: 'user'; content: string; toolResult?: true }
  | { role: 'assistant'; content: string; toolCalls?: NativeToolCall[] }
  | { role: 'tool'; content: string; toolName: string };

/** A tool offered to a model with native tool calling (Ollama's `tools` field). */
export interface LlmToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchemaObject };
}

export interface LlmRequest {
  messages: ChatMessage[];
  /** Offered only in native tool mode. */
  tools?: LlmToolDefinition[];
  signal?: AbortSignal;
}

export type LlmChunk =
  | { type: 'content'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_calls'; calls: NativeToolCall[] }
  | { type: 'done'; doneReason: string; evalCount?: number; totalDurationMs?: number };

export interface LlmCapabilities {
  tools: boolean;
  thinking: boolean;
}

/** The model seam: one streaming chat method, plus what the model can do. */
export interface LlmClient {
  readonly model: string;
  chat(request: LlmRequest): AsyncIterable<LlmChunk>;
  capabilities(): Promise<LlmCapabilities>;
}

/** A record of one executed (or refused) call, as `ask --json` reports it. */
export interface ToolCallRecord {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  isError: boolean;
  result: string;
  durationMs: number;
}

export type TurnEvent =
  | { type: 'assistant-delta'; text: string }
  | { type: 'thinking-delta'; text: string }
  /** The raw text of one model reply, for debug views. */
  | { type: 'model-reply'; raw: string; step: number; durationMs: number }
  | { type: 'tool-call'; call: ToolCall; step: number }
  | { type: 'tool-result'; call: ToolCall; result: ToolResult; step: number }
  /** The model's call could not be parsed; it was told how to fix it. */
  | { type: 'malformed-call'; hint: string; step: number }
  | { type: 'final'; answer: string; steps: number; toolCalls: ToolCallRecord[] }
  | { type: 'error'; message: string; hint?: string }
  | { type: 'step-limit'; steps: number; toolCalls: ToolCallRecord[] }
  | { type: 'cancelled' };
