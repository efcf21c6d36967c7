/**
 * A server's sampling request answered by the user's Ollama: its messages (images too, for a
 * model that can see), system prompt and limits become one chat request. The model is the
 * chat's, unless the server's hints name one Ollama has pulled.
 */
import type { SamplingRequest, SamplingResult } from '../vocabulary/server-requests.js';
import type { ChatMessage, LlmClient } from '../vocabulary/types.js';

/** A completion for a server must not hold the user's model for long. */
export const SAMPLING_TIMEOUT_MS = 120_000;

export interface SamplerModel extends LlmClient {
  listModels(): Promise<string[]>;
}

/**
 * The first hint that is part of a pulled model's name (the spec's hints are substrings:
 * `llama3` matches `llama3.2:latest`), else the chat's model.
 */
export async function chooseModel(hints: string[], llm: SamplerModel): Promise<string> {
  if (hints.length === 0) return llm.model;
  const pulled = await llm.listModels().catch(() => []);
  for (const hint of hints) {
    const wanted = hint.toLowerCase();
    const match = pulled.find((name) => name.toLowerCase().includes(wanted));
    if (match) return match;
  }
  return llm.model;
}

function toChatMessages(request: SamplingRequest): ChatMessage[] {
  const system: ChatMessage[] = request.systemPrompt ? [{ role: 'system', content: request.systemPrompt }] : [];
  return [
    ...system,
    ...request.messages.map((message): ChatMessage => {
      // Ollama takes images on user messages; a server's rare assistant image is described instead.
      if (message.role === 'assistant' || message.images.length === 0)
        return { role: message.role, content: withImageNotes(message) };
      const images = message.images.map((image) => ({ ...image, label: image.mimeType }));
      return { role: 'user', content: message.text, images };
    }),
  ];
}

function withImageNotes(message: SamplingRequest['messages'][number]): string {
  const notes = message.images.map((image) => `[an image (${image.mimeType})]`);
  return [message.text, ...notes].filter((part) => part !== '').join('\n');
}

/** The completion, as it streams in; `model` as chosen by `chooseModel`. */
export async function sample(
  request: SamplingRequest,
  model: string,
  llm: LlmClient,
  signal: AbortSignal,
): Promise<SamplingResult> {
  const options: Record<string, unknown> = { num_predict: request.maxTokens };
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.stopSequences?.length) options.stop = request.stopSequences;
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(SAMPLING_TIMEOUT_MS)]);
  let text = '';
  let stopReason: SamplingResult['stopReason'] = 'endTurn';
  for await (const chunk of llm.chat({ messages: toChatMessages(request), model, options, signal: bounded })) {
    if (chunk.type === 'content') text += chunk.text;
    else if (chunk.type === 'done' && chunk.doneReason === 'length') stopReason = 'maxTokens';
  }
  return { model, text, stopReason };
}
