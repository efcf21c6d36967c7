/**
 * Ollama's state for the status bar: checked once at start (a failure is reported to
 * `onStartFailure`, so it is explained before the first message), then updated by how each turn went.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TurnEvent } from '../chat/types.js';
import { OllamaError } from '../errors.js';
import type { ChatSession } from './chat-session.js';

export type OllamaStatus = { state: 'checking' } | { state: 'ok' } | { state: 'down'; message: string; hint?: string };

export interface OllamaStatusHandle {
  status: OllamaStatus;
  reportTurn: (event: TurnEvent) => void;
}

export function useOllamaStatus(session: ChatSession, onStartFailure: (message: string, hint: string | undefined) => void): OllamaStatusHandle {
  const [status, setStatus] = useState<OllamaStatus>({ state: 'checking' });

  useEffect(() => {
    let live = true;
    session.checkOllama().then(
      () => live && setStatus({ state: 'ok' }),
      (error: unknown) => {
        if (!live) return;
        const message = error instanceof Error ? error.message : String(error);
        const hint = error instanceof OllamaError ? error.hint : undefined;
        setStatus({ state: 'down', message, hint });
        onStartFailure(message, hint);
      },
    );
    return () => {
      live = false;
    };
  }, [session, onStartFailure]);

  const reportTurn = useCallback((event: TurnEvent) => {
    if (event.type === 'final' || event.type === 'model-reply') setStatus({ state: 'ok' });
    else if (event.type === 'error') setStatus({ state: 'down', message: event.message, hint: event.hint });
  }, []);

  return useMemo(() => ({ status, reportTurn }), [status, reportTurn]);
}
