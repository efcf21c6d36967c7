/**
 * What a turn that did not finish leaves: a failed one, the error event the front ends show (its
 * kind from what failed); a cancelled one, the reply as far as it was shown, marked as cut short
 * so that the next request tells the model so.
 */
import { ExitCode, McpChatError, OllamaError } from '../shared/errors.js';
import { ContextOverflowError } from './context-account.js';
import type { ChatMessage, TurnErrorKind, TurnEvent } from '../vocabulary/types.js';

/** Ends what the model had said of a cancelled turn. */
export const INTERRUPTED = '[interrupted by the user]';

/** The assistant's part of a cancelled turn: what it had shown, then the mark. */
export function interruptedReply(shown: string): ChatMessage {
  const said = shown.trim();
  return { role: 'assistant', content: said ? `${said}\n\n${INTERRUPTED}` : INTERRUPTED };
}

/** What an Ollama failure means for the turn. */
const OLLAMA_KINDS = {
  unreachable: 'unreachable',
  'model-missing': 'model-missing',
  'no-tool-support': 'model-failed',
  'context-exceeded': 'context-overflow',
  'request-failed': 'model-failed',
} as const satisfies Record<OllamaError['kind'], TurnErrorKind>;

function errorKind(error: unknown): TurnErrorKind {
  if (error instanceof OllamaError) return OLLAMA_KINDS[error.kind];
  if (error instanceof ContextOverflowError) return 'context-overflow';
  if (error instanceof McpChatError && error.exitCode === ExitCode.usage) return 'usage';
  return 'failed';
}

export function errorEvent(error: unknown): TurnEvent {
  const kind = errorKind(error);
  if (error instanceof McpChatError) return { type: 'error', kind, message: error.message, hint: error.hint };
  return { type: 'error', kind, message: error instanceof Error ? error.message : String(error) };
}
