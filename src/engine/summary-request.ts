/**
 * The request that has the model summarise earlier turns: a plain request (no tools, no `think`)
 * carrying the turns as a transcript. Policy: each message is capped and the oldest part is left
 * out when the whole would not fit the context, so the request itself never overflows; reasoning
 * the model writes is never part of the summary.
 */
import { assertNever } from '../shared/errors.js';
import { estimateTextTokens, promptBudget } from './conversation.js';
import { stripThinking } from '../tool-call/detector.js';
import type { ChatMessage, LlmClient } from '../vocabulary/types.js';

const SUMMARY_INSTRUCTION =
  'You summarise a conversation between a user and an assistant that can call tools, so that the ' +
  'conversation can go on without its full text. Write a concise summary of the conversation so far: ' +
  'the facts learned, the decisions made, the questions still open, and every file name, path, id, ' +
  'URL and number that may matter later. Plain text, no preamble.';
/** Characters of one message in the transcript: a long tool result says what it was in its start. */
const MESSAGE_CHARS = 3_000;
/** The longest summary asked for, in tokens: a summary longer than this saves little. */
const SUMMARY_TOKENS = 800;

/** One message as a transcript entry, capped. */
function entry(message: ChatMessage): string {
  const capped = (text: string): string =>
    text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)} … (cut)` : text;
  switch (message.role) {
    case 'system':
      // The earlier summary: it says itself what it is.
      return message.content;
    case 'user':
      return `${message.toolResult ? 'Tool result' : 'User'}: ${capped(message.content)}`;
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map(
        (call) => `Assistant called ${call.name}(${JSON.stringify(call.arguments ?? {})})`,
      );
      return [message.content.trim() === '' ? '' : `Assistant: ${capped(message.content)}`, ...calls]
        .filter((line) => line !== '')
        .join('\n');
    }
    case 'tool':
      return `Tool result (${message.toolName}): ${capped(message.content)}`;
    default:
      return assertNever(message);
  }
}

/** The transcript of `messages` that fits in `maxTokens`: the earlier summary kept, the oldest turns left out first. */
export function transcript(messages: readonly ChatMessage[], maxTokens: number): string {
  const summary = messages[0]?.role === 'system' ? [entry(messages[0])] : [];
  const entries = messages.slice(summary.length).map(entry);
  let omitted = false;
  const text = (): string =>
    [...summary, ...(omitted ? ['(The oldest part of the conversation is left out here.)'] : []), ...entries].join(
      '\n\n',
    );
  while (entries.length > 1 && estimateTextTokens(text()) > maxTokens) {
    entries.shift();
    omitted = true;
  }
  return text();
}

/** The messages of the summary request for `replaced`, within the context of `numCtx`. */
export function summaryMessages(replaced: readonly ChatMessage[], numCtx: number): ChatMessage[] {
  const framed = (text: string): string => `The conversation so far:\n\n${text}\n\nWrite the summary now.`;
  const room = promptBudget(numCtx) - estimateTextTokens(SUMMARY_INSTRUCTION + framed(''));
  return [
    { role: 'system', content: SUMMARY_INSTRUCTION },
    { role: 'user', content: framed(transcript(replaced, room)) },
  ];
}

/** Asks the model for the summary of `replaced`; throws when the request fails or the summary is empty. */
export async function requestSummary(
  llm: LlmClient,
  replaced: readonly ChatMessage[],
  numCtx: number,
  signal?: AbortSignal,
): Promise<string> {
  const replyTokens = Math.min(SUMMARY_TOKENS, numCtx - promptBudget(numCtx));
  // Reasoning would only slow the summary down; `think` goes only to a model that can think (Ollama refuses it otherwise).
  const think = (await llm.capabilities()).thinking ? { think: false } : {};
  const request = { messages: summaryMessages(replaced, numCtx), options: { num_predict: replyTokens }, ...think };
  let text = '';
  for await (const chunk of llm.chat(signal ? { ...request, signal } : request)) {
    if (chunk.type === 'content') text += chunk.text;
  }
  const summary = stripThinking(text).visible.trim();
  if (summary === '') throw new Error('the model wrote an empty summary');
  return summary;
}
