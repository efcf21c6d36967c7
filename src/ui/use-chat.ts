/**
 * The REPL's controller: a submitted line goes to the question being asked, the prompt argument
 * being asked for, a command or a turn; a key answers the approval question. Every answer goes to
 * the session by the question's id. It keeps only what is not state: the store and the running
 * turn's abort controller. Every change to what the screen shows is a `ChatAction`.
 */
import { type MutableRefObject, useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import type { Decision } from '../vocabulary/questions.js';
import type { ApprovalControls } from './approval-keys.js';
import type { ChatSession } from '../session/chat-session.js';
import type { KnownOffers } from '../session/session-offers.js';
import {
  addItems,
  askedArgument,
  initialChatState,
  isBusy,
  queuedToSend,
  resumedScreen,
  showItems,
  type ChatState,
  type ScreenState,
} from './chat-state.js';
import { argumentAtCursor, argumentValue } from './completion.js';
import type { LineState } from './line-editor.js';
import { ChatStore } from './chat-store.js';
import { parseInput } from './command-line.js';
import { runCommand } from './commands.js';
import type { Activity } from './history.js';
import { answerQuestion, refusalOf, type ScreenQuestion } from './server-questions.js';
import { answerPull, offerPull, setAsideOffer } from './model-pull.js';
import { runChatTurn } from './turn-runner.js';
import { useQuietWait } from './use-quiet-wait.js';
import { useSessionFeeds } from './use-session-feeds.js';

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
  /** False when the line was not taken: an answer the question refused (it stays on the line to be fixed). */
  submit: (text: string) => boolean;
  /** Cancels the running turn; false when none runs. */
  cancel: () => boolean;
  /** What the approval question's keys do. */
  approval: ApprovalControls;
  /** What the running servers offered at the last look (prompts, resources), for Tab. */
  offers: () => KnownOffers;
  /**
   * Tab on a prompt argument's value (on a `/prompt key=` line, or answering a question for one):
   * the server's suggestions, as the word would become; undefined when the line is not one.
   */
  argumentCompletions: (line: LineState) => Promise<string[]> | undefined;
  /** `<Static>` has written the history items up to `lastId`: the state lets them go. */
  printed: (lastId: number) => void;
}

type TurnRef = MutableRefObject<AbortController | undefined>;

/** Makes the approval question ready once no key has come for a moment (a key typed ahead makes a new activity). */
function useApprovalWait(store: ChatStore, activity: Activity): void {
  const waiting = activity.type === 'approval' && !activity.ready;
  useQuietWait(waiting, activity, () => store.dispatch({ type: 'approval-ready' }));
}

function approvalControls(session: ChatSession, store: ChatStore, cancel: () => boolean): ApprovalControls {
  return {
    answer: (decision) => {
      const { activity } = store.getState();
      if (activity.type !== 'approval') return;
      store.dispatch({ type: 'approval-answered' });
      session.answer(activity.id, decision);
    },
    choose: (choice) => store.dispatch({ type: 'approval-choice', choice }),
    typedAhead: () => store.dispatch({ type: 'approval-typed-ahead' }),
    showWholeCall: () => store.dispatch({ type: 'approval-whole-call' }),
    scroll: (by) => store.dispatch({ type: 'approval-scroll', by }),
    cancel: () => void cancel(),
  };
}

/** A question's answer, where it belongs: the REPL's own offer here, a server's to the session by its id. */
function decide(
  session: ChatSession,
  store: ChatStore,
  turn: TurnRef,
  question: ScreenQuestion,
  decision: Decision,
): void {
  if (question.type === 'pull') answerPull(session, store, turn, question, decision !== 'deny');
  else session.answer(question.id, decision);
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

/** Where a submitted line goes: the question asked, the argument asked for, a command, or a turn. */
function routeLine(
  session: ChatSession,
  store: ChatStore,
  turn: TurnRef,
  clearScreen: () => void,
  text: string,
): boolean {
  const question = store.getState().questions[0];
  if (question && !setAsideOffer(store, question, text)) {
    // A question takes the line even while a turn runs: the turn may be waiting on it.
    const { decision, ...step } = answerQuestion(question, text);
    store.dispatch({ type: 'question-step', id: question.id, ...step });
    if (decision !== undefined) decide(session, store, turn, question, decision);
    // Asked again as it was: the answer did not fit.
    return step.next !== question;
  }
  if (isBusy(store.getState())) {
    // A line is never dropped: one sent as a turn ends (its answer already on screen) goes next.
    store.dispatch({ type: 'queued', text });
    return true;
  }
  if (store.getState().asking) {
    store.dispatch({ type: 'argument-answered', value: text.trim() });
    const asking = store.getState().asking;
    if (asking && !askedArgument(asking)) void runChatTurn(session, store, turn, asking.line, asking.answers);
    return true;
  }
  const parsed = parseInput(text, (word) => session.offers.isPromptName(word));
  store.dispatch({ type: 'submitted', text, parsed });
  if (parsed.type === 'message') void runChatTurn(session, store, turn, parsed.text);
  else if (parsed.type === 'command') {
    void runCommand(parsed, session).then((result) => {
      if (result.clear) clearScreen();
      store.dispatch({ type: 'command-done', result });
      if (result.offerPull) offerPull(store, result.offerPull);
    });
  }
  return true;
}

/** Tab's suggestions for a prompt argument's value, from its server. */
function completionsFor(session: ChatSession, store: ChatStore, line: LineState): Promise<string[]> | undefined {
  const asking = store.getState().asking;
  const argument = asking && askedArgument(asking);
  if (asking && argument) {
    const value = line.text.slice(0, line.cursor);
    return session.offers.completeArgument(asking.prompt, { name: argument.name, value }, asking.answers);
  }
  const at = argumentAtCursor(line);
  if (!at) return undefined;
  return session.offers
    .completeArgument(at.prompt, at.argument, at.typed)
    .then((values) => values.map((value) => at.prefix + argumentValue(value)));
}

/** Sends the lines queued during a turn, one at a time, once nothing runs and nothing is asked. */
function useQueuedLines(state: ScreenState, store: ChatStore, submit: (text: string) => void): void {
  const next = queuedToSend(state);
  useEffect(() => {
    if (next === undefined) return;
    store.dispatch({ type: 'queue-taken' });
    submit(next);
    // `queued` changes with each line taken, so two equal lines in a row are each sent.
  }, [next, state.queued, store, submit]);
}

export function useChat(session: ChatSession, clearScreen: () => void): ChatController {
  const store = useMemo(() => new ChatStore(firstState(session)), [session]);
  const state = useSyncExternalStore(store.subscribe, store.getScreen);
  const streamed = useMemo(() => ({ subscribe: store.subscribe, getSnapshot: store.getStreamed }), [store]);
  const turn = useRef<AbortController | undefined>(undefined);
  useSessionFeeds(session, store);

  const submit = useCallback(
    (text: string) => routeLine(session, store, turn, clearScreen, text),
    [session, store, clearScreen],
  );
  const cancel = useCallback((): boolean => {
    const question = store.getState().questions[0];
    if (question) {
      decide(session, store, turn, question, refusalOf(question));
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

  const approval = useMemo(() => approvalControls(session, store, cancel), [session, store, cancel]);
  useApprovalWait(store, state.activity);
  useQueuedLines(state, store, submit);
  const offers = useCallback(() => session.offers.current, [session]);
  const argumentCompletions = useCallback((line: LineState) => completionsFor(session, store, line), [session, store]);
  const printed = useCallback((lastId: number) => store.dispatch({ type: 'printed', lastId }), [store]);
  return { state, streamed, current: store.getState, submit, cancel, approval, offers, argumentCompletions, printed };
}
