/**
 * The request that writes a structured answer (`ask --output-schema`): Ollama's `format` with
 * the schema, no tools. Which request that is, and why: the model first works as usual, with
 * tools and without `format` (a schema-constrained reply cannot be a tool call, and Ollama is
 * reported to ignore tools when `format` is present); once it answers without a call, that draft
 * is asked for once more under `format`. With no tools to offer, the first request is the
 * answer's. The schema is in the prompt too, as Ollama's docs advise.
 */
import { estimateTextTokens, estimateTokens, promptBudget } from './conversation.js';
import type { ChatMessage, JsonSchema } from '../vocabulary/types.js';

export interface AnswerPrompt {
  system: string;
  /** After the history: the draft answer and the request to give it as JSON (none without a draft). */
  followUp: ChatMessage[];
}

export function answerPrompt(schema: JsonSchema, draft: string | undefined): AnswerPrompt {
  const system =
    'You are a helpful assistant. The conversation holds the results of any tools that were used. ' +
    'Reply with only a JSON value that conforms to this JSON Schema, with no other text:\n' +
    JSON.stringify(schema);
  if (draft === undefined) return { system, followUp: [] };
  return {
    system,
    followUp: [
      { role: 'assistant', content: draft },
      {
        role: 'user',
        content: 'Give that answer again as only a JSON value that conforms to the JSON Schema in the system message.',
      },
    ],
  };
}

/** Tokens left for the history once the answer's prompt and follow-up are counted. */
export function answerHistoryTokens(numCtx: number, prompt: AnswerPrompt): number {
  return promptBudget(numCtx) - estimateTextTokens(prompt.system) - estimateTokens(prompt.followUp);
}
