/**
 * What the session says while the REPL runs, turned into reducer actions: server states (and the
 * prompts and resources they bring), notices, what became of servers' requests (with debug on),
 * the servers' questions as they are asked and settled, the config file's changes, and the check
 * of Ollama at start.
 */
import { useEffect } from 'react';
import { formatServerRequest } from '../vocabulary/server-requests.js';
import type { ChatSession } from '../session/chat-session.js';
import { OllamaError, errorMessage } from '../shared/errors.js';
import type { ChatStore } from './chat-store.js';
import { offerPull } from './model-pull.js';
import { screenQuestion } from './server-questions.js';

export function useSessionFeeds(session: ChatSession, store: ChatStore): void {
  useEffect(
    () =>
      session.status.subscribe(() => {
        store.dispatch({ type: 'servers', servers: session.statuses() });
        // A server that came up (or changed) may bring prompts and resources: `/name` and Tab find them once known.
        void session.offers.refresh().catch(() => undefined);
      }),
    [session, store],
  );
  useEffect(
    () => session.notices.subscribe((text) => store.dispatch({ type: 'add', items: [{ type: 'info', text }] })),
    [session, store],
  );
  useEffect(
    () =>
      session.serverRequests.subscribe((record) => {
        if (session.debug)
          store.dispatch({ type: 'add', items: [{ type: 'debug', text: formatServerRequest(record) }] });
      }),
    [session, store],
  );
  useEffect(
    () =>
      session.subscribeQuestions((change) => {
        if (change.type === 'asked') store.dispatch({ type: 'question', question: screenQuestion(change.question) });
        else
          store.dispatch({
            type: 'question-done',
            id: change.id,
            ...(change.withdrawn ? { note: 'The server withdrew its request.' } : {}),
          });
      }),
    [session, store],
  );
  // The config file is watched while the REPL runs: a change applies without a restart.
  useEffect(() => session.servers.watchConfig(), [session]);
  useStartCheck(session, store);
}

function useStartCheck(session: ChatSession, store: ChatStore): void {
  useEffect(() => {
    let live = true;
    session.checkOllama().then(
      () => live && store.dispatch({ type: 'ollama-checked', status: { state: 'ok' } }),
      (error: unknown) => {
        const hint = error instanceof OllamaError ? error.hint : undefined;
        if (live)
          store.dispatch({ type: 'ollama-checked', status: { state: 'down', message: errorMessage(error), hint } });
        // Started with a model that is not pulled: offered for download, as `/model` offers one.
        if (live && error instanceof OllamaError && error.kind === 'model-missing' && session.canPullModels)
          offerPull(store, session.model);
      },
    );
    return () => {
      live = false;
    };
  }, [session, store]);
}
