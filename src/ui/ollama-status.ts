/** Ollama's state for the status bar: checked once at start, then as each turn went. */
import type { TurnEvent } from '../vocabulary/types.js';

export type OllamaStatus = { state: 'checking' } | { state: 'ok' } | { state: 'down'; message: string; hint?: string };

/** What a turn event says about Ollama; `undefined` when it says nothing new. */
export function ollamaStatusAfter(event: TurnEvent): OllamaStatus | undefined {
  if (event.type === 'final' || event.type === 'model-reply') return { state: 'ok' };
  if (event.type === 'error') return { state: 'down', message: event.message, hint: event.hint };
  return undefined;
}
