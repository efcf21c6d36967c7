/**
 * The types at the seams of the chatbot: what flows between the model client, the
 * `MCPChatbot`, the MCP host and the two front ends (REPL and `ask`). Nothing here is
 * any one wire's shape: `ollama/` and `mcp/` translate their wires to and from these.
 */
import type { MissingArguments } from './offers.js';
import type { ToolRef } from './tool-naming.js';

/** How tool calls travel: in the API's own tool channel, or written in the reply text as JSON or XML. */
export type ToolProtocolName = 'native' | 'json' | 'xml';
/** The configured choice: `auto` takes native calls when the model has them. */
export type ToolMode = 'auto' | ToolProtocolName;

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
  /**
   * The server's `instructions` (capped, without its entry's secrets), the same string on each of
   * its tools: whatever list of tools reaches the system prompt carries them, and a new catalogue
   * (a reconnect) brings new ones, so a prompt kept per tools array stays right.
   */
  serverInstructions?: string;
}

/** A request to run one tool, however the model expressed it. */
export interface ToolCall extends ToolRef {
  arguments: Record<string, unknown>;
}

/** An image a tool returned that a model which can see may be given. */
export interface ToolImage {
  /** Base64 in its canonical form (padded, no line breaks): the only form Ollama decodes. */
  data: string;
  mimeType: string;
  /** What is said of it where it cannot be seen: `png 64×64, 1.2 kB`. */
  label: string;
}

export interface ToolResult {
  isError: boolean;
  /** The result's text for the model: capped, raw (a printer makes it inert for the screen). */
  forModel: string;
  durationMs: number;
  /** Images for a model that can see (within the caps of mcp/result-images.ts); `forModel` describes each in a line. */
  images?: ToolImage[];
  /** The user's cancel stopped the call, or kept it from running; `forModel` says which. */
  cancelled?: true;
}

/** How far a running call has got, as its server reports it (`notifications/progress`). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What the chatbot needs from the MCP host. `callTool` never throws. */
export interface ToolHost {
  listTools(): ToolSpec[];
  /**
   * `onProgress` hears the server's progress reports while the call runs. `maxChars`: the result's
   * cap for this call instead of the host's (a file read to compare a write with needs all of it).
   */
  callTool(
    call: ToolCall,
    signal?: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
    maxChars?: number,
  ): Promise<ToolResult>;
}

/**
 * What a write to a file would change, read from the same server before the user is asked
 * (engine/write-preview.ts): a unified diff against the current content, a file the server could
 * not read (new, most likely: `reason` is what the server said), or content that was not compared.
 */
export type WritePreview =
  | { kind: 'diff'; path: string; patch: string }
  | { kind: 'new-file'; path: string; reason: string }
  | { kind: 'not-compared'; path: string; reason: string };

/** A tool call the model made in the API's tool channel, not written in its text. */
export interface NativeToolCall {
  /** The name as offered (`server__tool`), or as the model garbled it. */
  name: string;
  /** `undefined` when what the model sent was not a JSON object. */
  arguments: Record<string, unknown> | undefined;
  id?: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  /** `toolResult`: a text-mode tool result fed back as a user message (never a window boundary). */
  | { role: 'user'; content: string; toolResult?: true; images?: ToolImage[] }
  /** `thinking`: the reasoning of a step that called tools, sent back with its calls as Ollama asks. */
  | { role: 'assistant'; content: string; toolCalls?: NativeToolCall[]; thinking?: string }
  /** `images`: shown to a model that can see, described in a note to one that cannot (ollama/wire.ts). */
  | { role: 'tool'; content: string; toolName: string; images?: ToolImage[] };

/** A tool offered to a model with native tool calling. */
export interface LlmToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
}

/** Ollama's `think`: reasoning on or off, or its effort. */
export type ThinkSetting = boolean | 'low' | 'medium' | 'high' | 'max';

/** A JSON Schema an answer must conform to (an object: Ollama's `format` takes no boolean schema). */
export type JsonSchema = Record<string, unknown>;

export interface LlmRequest {
  messages: ChatMessage[];
  /** Offered only in native tool mode. */
  tools?: LlmToolDefinition[];
  signal?: AbortSignal;
  /** Another model than the chat's, for this request only (a server's sampling request may name one). */
  model?: string;
  /** Model options for this request, over the config's (`num_predict`, `temperature`, `stop`). */
  options?: Record<string, unknown>;
  /** Sent only to a model with the `thinking` capability (the chatbot checks). */
  think?: ThinkSetting;
  /** Structured output: the reply is constrained to this JSON Schema. */
  format?: JsonSchema;
}

export type LlmChunk =
  | { type: 'content'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_calls'; calls: NativeToolCall[] }
  | {
      type: 'done';
      doneReason: string;
      evalCount?: number;
      totalDurationMs?: number;
      /** Tokens of the prompt Ollama evaluated (`prompt_eval_count`). */
      promptEvalCount?: number;
      /** Time generating the reply (`eval_duration`), in ms, unrounded: tokens per second divide by it. */
      evalDurationMs?: number;
      /** Time loading the model (`load_duration`), in ms. */
      loadDurationMs?: number;
    };

/** What one model request cost, as Ollama's final chunk reports it (each count absent when Ollama left it out). */
export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Time generating the reply, in ms. */
  generationMs?: number;
  loadMs?: number;
  /** The context window the request was sent with (`num_ctx`). */
  contextSize: number;
}

export interface LlmCapabilities {
  tools: boolean;
  thinking: boolean;
  /** The model reads images (`vision` in `/api/show`); absent means it does not. */
  vision?: boolean;
  /** The template parser Ollama names for the model (`parser` in `/api/show`, v0.32.2 on). */
  parser?: string;
}

/** The model seam: one streaming chat method, plus what the model can do. */
export interface LlmClient {
  readonly model: string;
  chat(request: LlmRequest): AsyncIterable<LlmChunk>;
  capabilities(): Promise<LlmCapabilities>;
}

/** A record of one executed (or refused) call, as `ask --json` reports it. */
export interface ToolCallRecord {
  /** The call's id in the turn's events. */
  id: CallId;
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  isError: boolean;
  result: string;
  durationMs: number;
}

/**
 * Why a tool was offered to the model: the whole catalogue fit (`all`), the config asks for it
 * (`always`), the message names it (`named`), it ran earlier in the session (`used`), a
 * `find_tools` call found it (`found`), or it ranked high enough for the request (`ranked`).
 */
export type OfferReason = 'all' | 'always' | 'named' | 'used' | 'found' | 'ranked';

export interface OfferedTool {
  /** `server.tool`. */
  name: string;
  reason: OfferReason;
  /** Position in the request's ranking (1 = best); only for ranked tools. */
  rank?: number;
  /** Natively: listed in the system prompt (called as text) rather than sent as a definition. */
  listed?: true;
}

/** The tools one model request carries, and what they cost against the budget. */
export interface ToolOffer {
  /** Tools in the whole catalogue. */
  catalogue: number;
  /** The most the offered tools may take, in estimated tokens. */
  budgetTokens: number;
  /** What the offered tools take, in estimated tokens. */
  tokens: number;
  /** Natively, the part of `tokens` in the system prompt: the listed tools and the servers' instructions. */
  listedTokens?: number;
  /** `short`: descriptions cut to fit more tools (names, types and `required` are never cut). */
  form: 'full' | 'short';
  tools: OfferedTool[];
  /** Set when `tools.embed_model` is configured: whether embeddings ranked this request, or why not. */
  embeddings?: 'used' | { failed: string };
}

/** The user's answer to an approval question: run once, run and stop asking for this tool, or refuse. */
export type ApprovalDecision = 'once' | 'always' | 'deny';

/**
 * Names one tool call within a session (`call_1`, `call_2`, …): every event about the call carries
 * it, so a front end, or a wire, follows the call from its start to its result.
 */
export type CallId = string;

/** Names one question put to the user within a session (`question_1`, …): it is answered by this id. */
export type QuestionId = string;

/** Why a turn failed, for whoever decides what to do next (a script's exit code, a status line). */
export type TurnErrorKind =
  /** The input itself was wrong (a prompt's argument): a script exits 2. */
  | 'usage'
  /** The message does not fit the model's context. */
  | 'context-overflow'
  /** Ollama does not answer at its URL. */
  | 'unreachable'
  /** The model is not pulled. */
  | 'model-missing'
  /** The request to the model failed. */
  | 'model-failed'
  /** Anything else: a prompt or resource a server could not give, a bug. */
  | 'failed';

export type TurnEvent =
  | { type: 'assistant-delta'; text: string }
  | { type: 'thinking-delta'; text: string }
  /** The reasoning of a reply is over (its answer or calls begin, or it ended): all of it, and how long it took. */
  | { type: 'thought'; text: string; durationMs: number; step: number }
  /** The raw text of one model reply, for debug views; `usage`: what it cost. */
  | { type: 'model-reply'; raw: string; step: number; durationMs: number; usage?: ModelUsage }
  /** The tools a model request offered, and why each. */
  | { type: 'tools-offered'; step: number; offer: ToolOffer }
  | { type: 'tool-call'; id: CallId; call: ToolCall; step: number }
  /**
   * The call `callId` needs the user's approval. The turn waits until the question `id` is answered
   * through the session (`answer(id, decision)`), or the turn's signal aborts, which refuses it.
   * `preview`: for a write to a file, what it would change.
   */
  | { type: 'approval-request'; id: QuestionId; callId: CallId; call: ToolCall; step: number; preview?: WritePreview }
  /** A running call reported progress. */
  | { type: 'tool-progress'; id: CallId; call: ToolCall; progress: ToolProgress; step: number }
  | { type: 'tool-result'; id: CallId; call: ToolCall; result: ToolResult; step: number }
  /** The model's call could not be parsed; it was told how to fix it. */
  | { type: 'malformed-call'; hint: string; step: number }
  | { type: 'final'; answer: string; steps: number; toolCalls: ToolCallRecord[] }
  | { type: 'error'; kind: TurnErrorKind; message: string; hint?: string }
  /** A prompt's required arguments the line left out, which the REPL asks for (a script: a usage error). */
  | { type: 'error'; kind: 'missing-arguments'; message: string; hint?: string; missing: MissingArguments }
  /**
   * The messages a server's prompt (`/server:prompt`) made this turn's input, every one, before the
   * model is sent them: what a server puts in the model's mouth (an `assistant` turn) is seen first.
   */
  | { type: 'prompt-messages'; server: string; prompt: string; messages: ChatMessage[] }
  /**
   * Something the input brought in (an attached resource), said once.
   * `warning`: a setting that could not be honoured (`think` for a model that cannot think).
   */
  | { type: 'notice'; text: string; warning?: true }
  | { type: 'step-limit'; steps: number; toolCalls: ToolCallRecord[] }
  | { type: 'cancelled' };
