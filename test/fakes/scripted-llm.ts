/**
 * A scripted model for orchestrator tests: replies are played in order, streamed in
 * small chunks like Ollama's, and every request is recorded. A reply can hang until
 * the request is aborted, to test cancellation mid-stream.
 */
import type { LlmCapabilities, LlmChunk, LlmRequest, NativeToolCall } from '../../src/vocabulary/types.js';
import type { SessionLlm } from '../../src/session/chat-session.js';

export interface ScriptedReplyShape {
  content?: string;
  thinking?: string;
  toolCalls?: NativeToolCall[];
  doneReason?: string;
  /** Thrown instead of replying (before any chunk). */
  error?: Error;
  /** After streaming `content`, wait until the request is aborted. */
  hang?: boolean;
  /** After streaming `content`, wait for this before the reply ends: the turn is still running meanwhile. */
  holdUntil?: Promise<void>;
  /** Ollama's count of the prompt, on the final chunk. */
  promptEvalCount?: number;
}
export type ScriptedReply = string | ScriptedReplyShape;

const CHUNK_CHARS = 4;

function abortError(): Error {
  const error = new Error('The operation was aborted');
  error.name = 'AbortError';
  return error;
}

/** A model client whose every model exists and whose Ollama is always up: for tests about the turn. */
export abstract class AlwaysUpLlm implements SessionLlm {
  abstract model: string;
  abstract capabilities(): Promise<LlmCapabilities>;
  abstract chat(request: LlmRequest): AsyncIterable<LlmChunk>;

  setModel(name: string): void {
    this.model = name;
  }

  async checkModel(): Promise<void> {}

  async checkAvailable(): Promise<void> {}
}

export class ScriptedLlm extends AlwaysUpLlm {
  model = 'scripted-model';
  readonly requests: LlmRequest[] = [];
  private readonly queue: ScriptedReply[];

  constructor(
    replies: ScriptedReply[],
    private readonly caps: LlmCapabilities = { tools: false, thinking: false },
  ) {
    super();
    this.queue = [...replies];
  }

  async capabilities(): Promise<LlmCapabilities> {
    return this.caps;
  }

  /** Requests' messages as the model saw them, for assertions. */
  sentContents(index: number): string {
    return (this.requests[index]?.messages ?? []).map((message) => message.content).join('\n---\n');
  }

  async *chat(request: LlmRequest): AsyncGenerator<LlmChunk> {
    this.requests.push(structuredClone({ ...request, signal: undefined }));
    // As the Ollama client does: a request already cancelled is not sent.
    if (request.signal?.aborted) throw abortError();
    const next = this.queue.shift();
    if (next === undefined) throw new Error('ScriptedLlm: no reply left in the script');
    const reply: ScriptedReplyShape = typeof next === 'string' ? { content: next } : next;
    if (reply.error) throw reply.error;
    if (reply.thinking) yield { type: 'thinking', text: reply.thinking };
    const content = reply.content ?? '';
    for (let at = 0; at < content.length; at += CHUNK_CHARS) {
      if (request.signal?.aborted) throw abortError();
      yield { type: 'content', text: content.slice(at, at + CHUNK_CHARS) };
    }
    if (reply.hang) {
      await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve(), { once: true }));
      throw abortError();
    }
    await reply.holdUntil;
    if (reply.toolCalls) yield { type: 'tool_calls', calls: reply.toolCalls };
    yield {
      type: 'done',
      doneReason: reply.doneReason ?? 'stop',
      ...(reply.promptEvalCount === undefined ? {} : { promptEvalCount: reply.promptEvalCount }),
    };
  }
}
