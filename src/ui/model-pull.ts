/**
 * The REPL's offer to pull a model Ollama does not have (`/model qwen3`, or a start with a
 * model not pulled): a y/n question asked like a server's (the same queue, on the input line),
 * then the download with a live progress line that Esc cancels. The model is switched only
 * once the pull has succeeded; until then it stays what it was.
 */
import type { MutableRefObject } from 'react';
import { PULL_RESUMES, type PullProgress } from '../vocabulary/model-pull.js';
import { formatPullDone, PullMeter } from '../present/pull-progress.js';
import type { ChatSession } from '../session/chat-session.js';
import { OllamaError, errorMessage } from '../shared/errors.js';
import type { ChatStore } from './chat-store.js';
import type { NewHistoryItem } from './history.js';
import type { ScreenQuestion } from './server-questions.js';

/** Offers made in this chat: each offer's question id is `pull_<n>`. */
let offersMade = 0;

const NOT_STARTED: PullProgress = { status: 'pulling manifest', total: 0, completed: 0, transferred: 0 };

type PullQuestion = Extract<ScreenQuestion, { type: 'pull' }>;

/** Asks whether to pull `model`; the answer comes to `answerPull`. */
export function offerPull(store: ChatStore, model: string): void {
  const text = `${model} is not pulled. Pull it now? y/n (the size shows once the download starts)`;
  store.dispatch({ type: 'question', question: { type: 'pull', id: `pull_${++offersMade}`, text, model } });
}

/** The answer to the offer: a yes pulls the model, with the abort controller in `turn` while it runs. */
export function answerPull(
  session: ChatSession,
  store: ChatStore,
  turn: MutableRefObject<AbortController | undefined>,
  question: PullQuestion,
  yes: boolean,
): void {
  store.dispatch({ type: 'question-done', id: question.id });
  const { model } = question;
  if (yes) void runPull(session, store, turn, model);
  else
    store.dispatch({
      type: 'add',
      items: [{ type: 'info', text: `${model} not pulled.${stillUsing(session, model)}` }],
    });
}

/**
 * The offer does not hold the input line as a server's question does: a line that is not y or n
 * (another command, a message) sets it aside, and goes on as typed. True when it did.
 */
export function setAsideOffer(store: ChatStore, question: ScreenQuestion, typed: string): boolean {
  const text = typed.trim();
  if (question.type !== 'pull' || text === '' || /^(y|yes|n|no)$/i.test(text)) return false;
  store.dispatch({ type: 'question-done', id: question.id });
  return true;
}

function stillUsing(session: ChatSession, model: string): string {
  return session.model === model ? '' : ` The model is still ${session.model}.`;
}

async function runPull(
  session: ChatSession,
  store: ChatStore,
  turn: MutableRefObject<AbortController | undefined>,
  model: string,
): Promise<void> {
  const controller = new AbortController();
  turn.current = controller;
  const started = Date.now();
  const meter = new PullMeter(model);
  store.dispatch({ type: 'pull-progress', pulling: { model, progress: NOT_STARTED } });
  const ended = (...items: NewHistoryItem[]): void => store.dispatch({ type: 'pull-ended', items });
  try {
    for await (const progress of session.pullModel(model, controller.signal)) {
      const pulling = meter.report(progress, Date.now());
      if (pulling) store.dispatch({ type: 'pull-progress', pulling });
    }
    const switched = session.model !== model;
    await session.switchModel(model);
    // Ollama answered the whole pull: whatever the start check said, it is there and so is the model.
    store.dispatch({ type: 'ollama-checked', status: { state: 'ok' } });
    const done = formatPullDone(model, meter.last, Date.now() - started);
    ended({ type: 'info', text: switched ? `${done} Model switched to ${model}.` : done });
  } catch (error) {
    if (controller.signal.aborted) {
      ended({ type: 'info', text: `Pull of ${model} cancelled.${stillUsing(session, model)} ${PULL_RESUMES}` });
    } else {
      const hint = error instanceof OllamaError ? error.hint : undefined;
      ended({ type: 'error', text: errorMessage(error), ...(hint ? { hint } : {}) });
    }
  } finally {
    if (turn.current === controller) turn.current = undefined;
  }
}
