/**
 * The REPL's controller: submitted lines become commands or turns, a turn's events become
 * reducer actions. It keeps only what is not state: the store, the stream timer and the
 * running turn's abort controller. Every change to what the screen shows is a `ChatAction`.
 */
import { type MutableRefObject, useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { formatServerRequest } from '../vocabulary/server-requests.js';
import type { TurnEvent } from '../vocabulary/types.js';
import type { ApprovalControls } from './approval-keys.js';
import type { ChatSession } from '../session/chat-session.js';
import { OllamaError, errorMessage } from '../shared/errors.js';
import {
  addItems,
  askedArgument,
  initialChatState,
  isBusy,
  resumedScreen,
  showItems,
  type ChatState,
  type ScreenState,
} from './chat-state.js';
import { argumentAtCursor, argumentValue } from './completion.js';
import type { LineState } from './line-editor.js';
import { ChatStore } from './chat-store.js';
import { parseInput, runCommand } from './commands.js';
import type { Activity } from './history.js';
import { answerQuestion, refuseQuestion, storeQuestions } from './server-questions.js';
import { offerPull, setAsideOffer } from './model-pull.js';
import { StreamBatcher } from './stream-batcher.js';
import { useQuietWait } from './use-quiet-wait.js';
import { commitsStreamed } from './turn-events.js';

/** The streaming reply's text, read by the part of the screen that shows it (`useSyncExternalStore`). */
export interface StreamedText {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => string;
}

export interface ChatController {
  /** The state for the screen, but for the streaming reply's text (`streamed`). */
  state: ScreenState;
  streamed: StreamedText;
  /** The state now, for key handlers: the last render may lag behind it. */
  current: () => ChatState;
  submit: (text: string) => void;
  /** Cancels the running turn; false when none runs. */
  cancel: () => boolean;
  /** What the approval question's keys do. */
  approval: ApprovalControls;
  /** What the running servers offered at the last look (prompts, resources), for Tab. */
  offers: () => ChatSession['knownOffers'];
  /**
   * Tab on a prompt argument's value (on a `/prompt key=` line, or answering a question for one):
   * the server's suggestions, as the word would become; undefined when the line is not one.
   */
  argumentCompletions: (line: LineState) => Promise<string[]> | undefined;
  /** `<Static>` has written the history items up to `lastId`: the state lets them go. */
  printed: (lastId: number) => void;
}

/** Makes the approval question ready once no key has come for a moment (a key typed ahead makes a new activity). */
function useApprovalWait(store: ChatStore, activity: Activity): void {
  const waiting = activity.type === 'approval' && !activity.ready;
  useQuietWait(waiting, activity, () => store.dispatch({ type: 'approval-ready' }));
}

function approvalControls(store: ChatStore, cancel: () => boolean): ApprovalControls {
  return {
    answer: (decision) => {
      const { activity } = store.getState();
      if (activity.type !== 'approval') return;
      store.dispatch({ type: 'approval-answered' });
      activity.answer(decision);
    },
    choose: (choice) => store.dispatch({ type: 'approval-choice', choice }),
    typedAhead: () => store.dispatch({ type: 'approval-typed-ahead' }),
    showWholeCall: () => store.dispatch({ type: 'approval-whole-call' }),
    cancel: () => void cancel(),
  };
}

function useStartCheck(
  session: ChatSession,
  store: ChatStore,
  turn: MutableRefObject<AbortController | undefined>,
): void {
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
          offerPull(session, store, turn, session.model);
      },
    );
    return () => {
      live = false;
    };
  }, [session, store, turn]);
}

/** Runs one turn: its events become actions, streamed text batched; the abort controller lives in `turn` while it runs. */
async function runChatTurn(
  session: ChatSession,
  store: ChatStore,
  turn: MutableRefObject<AbortController | undefined>,
  text: string,
  given: Record<string, string> = {},
): Promise<void> {
  const controller = new AbortController();
  turn.current = controller;
  store.dispatch({ type: 'turn-started' });
  const dispatchEvent = (event: TurnEvent): void => store.dispatch({ type: 'turn-event', event, debug: session.debug });
  const batcher = new StreamBatcher((streamed) => dispatchEvent({ type: 'assistant-delta', text: streamed }));
  let answered = false;
  try {
    for await (const event of session.runTurn(text, controller.signal, given)) {
      if (event.type === 'final') answered = true;
      if (event.type === 'assistant-delta') batcher.append(event.text);
      else if (event.type === 'error' && event.missing) {
        // A person is here to answer: ask for what the prompt needs rather than explain its usage.
        store.dispatch({ type: 'ask-arguments', asking: { ...event.missing, line: text, answers: given } });
      } else {
        if (commitsStreamed(event)) batcher.flush();
        else if (event.type === 'final') batcher.dispose();
        dispatchEvent(event);
      }
    }
  } catch (error) {
    // The chatbot reports failures as events; this is a bug, but the REPL must stay usable, not die of an unhandled rejection.
    store.dispatch({ type: 'add', items: [{ type: 'error', text: errorMessage(error) }] });
  } finally {
    batcher.dispose();
    turn.current = undefined;
    store.dispatch({ type: 'turn-ended' });
    saveSession(session, store, answered);
  }
}

/**
 * Saves the session with what the screen showed since the last save. The file is written in the
 * background: the next line can be typed at once. A failure is said on screen, and the chat goes
 * on; the keeper has the items all the same, and the next save writes them.
 */
function saveSession(session: ChatSession, store: ChatStore, answered: boolean): void {
  const { unsaved } = store.getState();
  store.dispatch({ type: 'saved', count: unsaved.length });
  session.saveTurn(unsaved, answered).catch((error: unknown) => {
    store.dispatch({ type: 'add', items: [{ type: 'error', text: `Session not saved: ${errorMessage(error)}` }] });
  });
}

/** The first state: the banner, then a resumed session's screen when the chat carries one on. */
function firstState(session: ChatSession): ChatState {
  const initial = initialChatState(
    { model: session.model, configSource: session.runtime.config.source },
    session.statuses(),
  );
  const resumed = session.keeper?.saved;
  if (!resumed) return initial;
  const { shown, said } = resumedScreen(resumed);
  return addItems(showItems(initial, ...shown), said);
}

export function useChat(session: ChatSession, clearScreen: () => void): ChatController {
  const store = useMemo(() => new ChatStore(firstState(session)), [session]);
  const state = useSyncExternalStore(store.subscribe, store.getScreen);
  const streamed = useMemo(() => ({ subscribe: store.subscribe, getSnapshot: store.getStreamed }), [store]);
  const turn = useRef<AbortController | undefined>(undefined);

  useEffect(
    () =>
      session.status.subscribe(() => {
        store.dispatch({ type: 'servers', servers: session.statuses() });
        // A server that came up (or changed) may bring prompts and resources: `/name` and Tab find them once known.
        void session.refreshOffers().catch(() => undefined);
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
  useStartCheck(session, store, turn);
  // The config file is watched while the REPL runs: a change applies without a restart.
  useEffect(() => session.watchConfig(), [session]);
  useEffect(
    () =>
      session.attachQuestions(
        storeQuestions({
          ask: (question) => store.dispatch({ type: 'question', question }),
          done: (id, note) => store.dispatch({ type: 'question-done', id, ...(note ? { note } : {}) }),
        }),
      ),
    [session, store],
  );

  const submit = useCallback(
    (text: string) => {
      const question = store.getState().questions[0];
      if (question && !setAsideOffer(question, text)) {
        // A server's question takes the line even while a turn runs: the turn may be waiting on it.
        store.dispatch({ type: 'question-step', id: question.id, ...answerQuestion(question, text) });
        return;
      }
      if (isBusy(store.getState())) return;
      if (store.getState().asking) {
        store.dispatch({ type: 'argument-answered', value: text.trim() });
        const asking = store.getState().asking;
        if (asking && !askedArgument(asking)) void runChatTurn(session, store, turn, asking.line, asking.answers);
        return;
      }
      const parsed = parseInput(text, (word) => session.isPromptName(word));
      store.dispatch({ type: 'submitted', text, parsed });
      if (parsed.type === 'message') void runChatTurn(session, store, turn, parsed.text);
      else if (parsed.type === 'command') {
        void runCommand(parsed, session).then((result) => {
          if (result.clear) clearScreen();
          store.dispatch({ type: 'command-done', result });
          if (result.offerPull) offerPull(session, store, turn, result.offerPull);
        });
      }
    },
    [session, store, clearScreen],
  );

  const cancel = useCallback((): boolean => {
    const question = store.getState().questions[0];
    if (question) {
      refuseQuestion(question);
      return true;
    }
    if (store.getState().asking) {
      store.dispatch({ type: 'asking-cancelled' });
      return true;
    }
    if (!isBusy(store.getState())) return false;
    turn.current?.abort();
    session.stopServerWork();
    return true;
  }, [session, store]);

  const approval = useMemo(() => approvalControls(store, cancel), [store, cancel]);
  useApprovalWait(store, state.activity);

  const offers = useCallback(() => session.knownOffers, [session]);
  const argumentCompletions = useCallback(
    (line: LineState): Promise<string[]> | undefined => {
      const asking = store.getState().asking;
      const argument = asking && askedArgument(asking);
      if (asking && argument) {
        const value = line.text.slice(0, line.cursor);
        return session.completeArgument(asking.prompt, { name: argument.name, value }, asking.answers);
      }
      const at = argumentAtCursor(line);
      if (!at) return undefined;
      return session
        .completeArgument(at.prompt, at.argument, at.typed)
        .then((values) => values.map((value) => at.prefix + argumentValue(value)));
    },
    [session, store],
  );
  const printed = useCallback((lastId: number) => store.dispatch({ type: 'printed', lastId }), [store]);
  return { state, streamed, current: store.getState, submit, cancel, approval, offers, argumentCompletions, printed };
}
