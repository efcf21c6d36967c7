/**
 * How one turn's events change the REPL's state: streamed prose (each finished markdown block to the
 * history at once), tool lines, approval questions, errors. Pure; the chat reducer's part for events.
 */
import type { TurnEvent } from '../vocabulary/types.js';
import type { Activity, RunningCall } from './history.js';
import { approvalReview } from './approval-review.js';
import { displayName } from '../vocabulary/tool-naming.js';
import { assertNever } from '../shared/errors.js';
import { addItems, saveItems, showItems, type ChatState } from './chat-state.js';
import { lastSafeSplit, unshownAnswer } from './reply-blocks.js';
import { ollamaStatusAfter } from './ollama-status.js';
import { promptMessagesView } from '../present/prompt-messages.js';
import { formatToolOffer } from '../present/tool-offer.js';
import { thoughtLine } from '../present/usage.js';
import { counted } from '../shared/plural.js';

export interface TurnEventAction {
  type: 'turn-event';
  event: TurnEvent;
  /** Debug output was on when the event arrived. */
  debug: boolean;
}

/**
 * Events that commit the reply streamed so far to the history: deltas still batched must reach
 * the state first. A final answer carries the whole reply, so its batch can be dropped.
 */
export function commitsStreamed(event: TurnEvent): boolean {
  return event.type === 'tool-call' || event.type === 'error' || event.type === 'cancelled';
}

/** A block of the reply drawn in the history: after one of its earlier blocks, a blank line apart. */
function showBlock(state: ChatState, text: string): ChatState {
  const block = text.trim();
  if (!block) return state;
  return showItems(state, { type: 'assistant', text: block, ...(state.committed ? { continued: true } : {}) });
}

/** The finished blocks streamed go to the history; only the last block, unfinished, stays live. */
function commitFinished(state: ChatState): ChatState {
  const at = lastSafeSplit(state.streamed);
  if (at === 0) return state;
  const finished = state.streamed.slice(0, at);
  return { ...showBlock(state, finished), streamed: state.streamed.slice(at), committed: state.committed + finished };
}

/** Commits what the model streamed so far, so text the user has seen stays on screen; it is saved whole. */
export function commitStreamed(state: ChatState): ChatState {
  const reply = (state.committed + state.streamed).trim();
  const committed = { ...showBlock(state, state.streamed), streamed: '', committed: '' };
  return reply ? saveItems(committed, { type: 'assistant', text: reply }) : committed;
}

/** The final answer: what of it the history does not show yet is drawn, and it is saved whole. */
function answered(state: ChatState, answer: string): ChatState {
  const rest = unshownAnswer(answer, state.committed, state.streamed);
  const done = { ...showBlock(state, rest), streamed: '', committed: '' };
  return answer.trim() ? saveItems(done, { type: 'assistant', text: answer }) : done;
}

/** The calls the screen shows as running. */
function running(state: ChatState): RunningCall[] {
  return state.activity.type === 'tool' ? state.activity.calls : [];
}

function withDebug(state: ChatState, debug: boolean, text: string): ChatState {
  return debug ? addItems(state, { type: 'debug', text }) : state;
}

/** Reasoning streams dim below the history while nothing else of the reply has come. */
function thinking(state: ChatState, text: string): ChatState {
  const { activity } = state;
  if (activity.type === 'thinking') return { ...state, activity: { type: 'thinking', text: activity.text + text } };
  return activity.type === 'waiting' ? { ...state, activity: { type: 'thinking', text } } : state;
}

/** Reasoning over: one line in the history (all of it with debug on), and the wait goes on. */
function thoughtFolded(state: ChatState, event: Extract<TurnEvent, { type: 'thought' }>, debug: boolean): ChatState {
  const line = thoughtLine(event.durationMs);
  const folded = addItems(
    state,
    debug ? { type: 'debug', text: `${line}:\n${event.text}` } : { type: 'info', text: line },
  );
  return state.activity.type === 'thinking' ? { ...folded, activity: { type: 'waiting' } } : folded;
}

/** The status bar's gauge: the last request's prompt and reply against `num_ctx`, when Ollama counted the prompt. */
function withContext(state: ChatState, event: Extract<TurnEvent, { type: 'model-reply' }>): ChatState {
  const usage = event.usage;
  if (usage?.inputTokens === undefined) return state;
  return { ...state, context: { used: usage.inputTokens + (usage.outputTokens ?? 0), size: usage.contextSize } };
}

type CallEvent = Extract<TurnEvent, { type: 'tool-call' | 'tool-progress' | 'approval-request' | 'tool-result' }>;

/** A call's events, by its id: it starts, reports progress, waits for approval, and ends with its result. */
function applyCallEvent(state: ChatState, event: CallEvent, debug: boolean): ChatState {
  switch (event.type) {
    case 'tool-call': {
      // Prose the model wrote before the call stays on screen, above the tool line.
      const committed = withDebug(
        commitStreamed(state),
        debug,
        `parsed call: ${displayName(event.call)} ${JSON.stringify(event.call.arguments)}`,
      );
      const call = { id: event.id, call: event.call };
      return { ...committed, activity: { type: 'tool', calls: [...running(state), call] } };
    }
    case 'tool-progress': {
      if (state.activity.type !== 'tool' || !state.activity.calls.some((running) => running.id === event.id))
        return state;
      const progress = new Map(state.activity.progress).set(event.id, event.progress);
      return { ...state, activity: { ...state.activity, progress } };
    }
    case 'approval-request': {
      const { id, callId, call, preview } = event;
      const review = approvalReview(call, preview);
      const shown = { ...(preview && { preview }), ...(review && { review }) };
      return { ...state, activity: { type: 'approval', id, callId, call, ready: false, ...shown } };
    }
    case 'tool-result': {
      const still = running(state).filter((call) => call.id !== event.id);
      const activity: Activity = still.length > 0 ? { type: 'tool', calls: still } : { type: 'waiting' };
      return { ...addItems(state, { type: 'tool', call: event.call, result: event.result }), activity };
    }
    default:
      return assertNever(event);
  }
}

function applyEvent(state: ChatState, event: TurnEvent, debug: boolean): ChatState {
  switch (event.type) {
    case 'assistant-delta': {
      // The same activity while the reply streams: the rest of the screen then stays as it was (chat-store.ts).
      const activity: Activity = state.activity.type === 'streaming' ? state.activity : { type: 'streaming' };
      return commitFinished({ ...state, streamed: state.streamed + event.text, activity });
    }
    case 'tool-call':
    case 'tool-progress':
    case 'approval-request':
    case 'tool-result':
      return applyCallEvent(state, event, debug);
    case 'prompt-messages':
      return addItems(state, { type: 'info', text: promptMessagesView(event.server, event.prompt, event.messages) });
    case 'notice':
      return addItems(state, { type: 'info', text: event.text });
    case 'model-reply':
      return withDebug(
        withContext(state, event),
        debug,
        `step ${event.step}, ${event.durationMs} ms, raw reply:\n${event.raw}`,
      );
    case 'malformed-call':
      return withDebug(state, debug, `malformed tool call; hint sent to the model:\n${event.hint}`);
    case 'tools-offered':
      return withDebug(state, debug, `step ${event.step}, ${formatToolOffer(event.offer)}`);
    case 'final':
      return answered(state, event.answer);
    case 'error':
      return addItems(commitStreamed(state), { type: 'error', text: event.message, hint: event.hint });
    case 'step-limit':
      return addItems(state, {
        type: 'error',
        text: `No final answer after ${counted(event.steps, 'step')}.`,
        hint: 'Ask again, or more specifically.',
      });
    case 'cancelled':
      return addItems(commitStreamed(state), { type: 'info', text: 'Cancelled.' });
    case 'thinking-delta':
      return thinking(state, event.text);
    case 'thought':
      return thoughtFolded(state, event, debug);
    default:
      return assertNever(event);
  }
}

export function applyTurnEvent(state: ChatState, { event, debug }: TurnEventAction): ChatState {
  const ollama = ollamaStatusAfter(event);
  return applyEvent(ollama ? { ...state, ollama } : state, event, debug);
}
