/**
 * What fills the model's context in one request: the system prompt, the tools offered, the
 * reply's share kept free, and the history. A message that cannot fit even with no history is
 * refused before the model sees it (Ollama would silently cut the prompt from the front, system
 * prompt and all), with an account of what took the space.
 */
import { McpChatError } from '../shared/errors.js';
import { estimateTextTokens, estimateTokens, promptBudget } from './conversation.js';
import type { ChatMessage, ToolOffer } from '../vocabulary/types.js';

export interface ContextAccount {
  numCtx: number;
  /** The system prompt without the tools it lists. */
  systemTokens: number;
  /** The tools offered, wherever they travel (the request's tool list or the system prompt). */
  toolTokens: number;
  offer: ToolOffer;
}

/** The user's message does not fit the context; exit 1 like any failed turn. */
export class ContextOverflowError extends McpChatError {}

export function accountFor(
  numCtx: number,
  prompt: { systemPrompt: string; toolsInPrompt: boolean },
  offer: ToolOffer,
): ContextAccount {
  const promptTokens = estimateTextTokens(prompt.systemPrompt);
  // Natively, the tools listed in the prompt are still the tools' share.
  const toolsInPrompt = prompt.toolsInPrompt ? offer.tokens : (offer.listedTokens ?? 0);
  return {
    numCtx,
    systemTokens: Math.max(0, promptTokens - toolsInPrompt),
    toolTokens: offer.tokens,
    offer,
  };
}

/** Tokens left for the history (the new message included) after the system prompt and the tools. */
export function historyTokens(account: ContextAccount): number {
  return promptBudget(account.numCtx) - account.systemTokens - account.toolTokens;
}

/** `earlier`: the history before the message, counted only to explain a refusal. */
export function checkMessageFits(account: ContextAccount, message: string, earlier: ChatMessage[]): void {
  const fits = historyTokens(account);
  const needs = estimateTokens([{ role: 'user', content: message }]);
  if (needs <= fits) return;
  const { numCtx, offer } = account;
  const tools =
    offer.tools.length === offer.catalogue
      ? `${offer.catalogue} tools`
      : `${offer.tools.length} of ${offer.catalogue} tools`;
  throw new ContextOverflowError(
    `the message is too long for the model's context: about ${needs} tokens, at most ${fits} fit (num_ctx ${numCtx})\n` +
      `The context holds: the system prompt (${account.systemTokens} tokens), the tools (${account.toolTokens}, ${tools}), ` +
      `the reply's share (${numCtx - promptBudget(numCtx)}) and earlier messages (${estimateTokens(earlier)}, left out first).`,
    undefined,
    'Shorten the message, or raise ollama.num_ctx in mcp_config.json if the model supports a longer context; ' +
      'a lower tools.budget leaves more room for messages.',
  );
}
