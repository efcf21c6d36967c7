/** Ollama's state for the status bar: checked once at start, then as each turn went. */
import type { TurnEvent } from '../vocabulary/types.js';

export type OllamaStatus = { state: 'checking' } | { state: 'ok' } | { state: 'down'; message: string; hint?: string };

/** The errors that say Ollama (or its model) failed; others (a prompt's bad argument) say nothing of it. */
const OLLAMA_FAILURES: ReadonlySet<string> = new Set(['unreachable', 'model-missing', 'model-failed']);

/** What a turn event says about Ollama; `undefined` when it says nothing new. */
export function ollamaStatusAfter(event: TurnEvent): OllamaStatus | undefined {
  if (event.type === 'final' || event.type === 'model-reply') return { state: 'ok' };
  if (event.type === 'error' && OLLAMA_FAILURES.has(event.kind))
    return { state: 'down', message: event.message, hint: event.hint };
  return undefined;
}
