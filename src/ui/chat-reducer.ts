/**
 * Every change to the REPL's state, as a pure reducer. Turn events and the user's actions
 * are its only inputs; timers, the turn's abort controller and the terminal stay in `useChat`.
 */
import type { ServerStatus } from '../session/chat-session.js';
import { displayName } from '../vocabulary/tool-naming.js';
import { wholeArguments } from '../present/argument-views.js';
import type { PullView } from '../present/pull-progress.js';
import { assertNever } from '../shared/errors.js';
import {
  addItems,
  askedArgument,
  printedItems,
  showItems,
  type AskingArguments,
  type ChatState,
} from './chat-state.js';
import type { ParsedInput } from './command-line.js';
import type { CommandResult } from './command-result.js';
import type { AllowingDecision, ApprovalActivity, NewHistoryItem } from './history.js';
import { type ApprovalReview, scrolledBy } from './approval-review.js';
import type { OllamaStatus } from './ollama-status.js';
import type { ScreenQuestion } from './server-questions.js';
import { toolChangesItem } from './tool-changes-question.js';
import { applyTurnEvent, commitStreamed, type TurnEventAction } from './turn-events.js';

export type ChatAction =
  | { type: 'add'; items: NewHistoryItem[] }
  /** `<Static>` has written the history items up to `lastId` to the scrollback. */
  | { type: 'printed'; lastId: number }
  /** The first `count` unsaved items went to the session. */
  | { type: 'saved'; count: number }
  | { type: 'turn-started' }
  | TurnEventAction
  /** The question has been on screen long enough, with no key typed ahead, to take an answer. */
  | { type: 'approval-ready' }
  /** A key came before the question could take one: it was typing, and the wait starts again. */
  | { type: 'approval-typed-ahead' }
  | { type: 'approval-choice'; choice: AllowingDecision | undefined }
  /** The whole call, every argument in full, goes to the scrollback. */
  | { type: 'approval-whole-call' }
  /** The view of a call too long for the box moves `by` rows. */
  | { type: 'approval-scroll'; by: number }
  | { type: 'approval-answered' }
  | { type: 'turn-ended' }
  | { type: 'servers'; servers: ServerStatus[] }
  /** The start check: a failure is explained before the first message. */
  | { type: 'ollama-checked'; status: OllamaStatus }
  /** A line sent while a turn runs: it waits for the turn to end. */
  | { type: 'queued'; text: string }
  /** The first queued line is being sent. */
  | { type: 'queue-taken' }
  /** A line the user sent: it stays in the scrollback, commands included, so their output has a heading. */
  | { type: 'submitted'; text: string; parsed: ParsedInput }
  | { type: 'command-done'; result: CommandResult }
  /** A prompt's line left out required arguments: each is asked for in turn. */
  | { type: 'ask-arguments'; asking: AskingArguments }
  /** A line typed while an argument was asked for: its value. */
  | { type: 'argument-answered'; value: string }
  | { type: 'asking-cancelled' }
  /** A server's request for the user: asked now, or after those before it. */
  | { type: 'question'; question: ScreenQuestion }
  /** A line answered the question: the form goes on to `next`; `items` show the answer. */
  | { type: 'question-step'; id: string; next?: ScreenQuestion; items: NewHistoryItem[] }
  /** The question is over (answered, or withdrawn by the server: `note`). */
  | { type: 'question-done'; id: string; note?: string }
  /** A model pull has started or moved on: its progress line is redrawn. */
  | { type: 'pull-progress'; pulling: PullView }
  /** The pull is over (done, cancelled or failed): `items` say how. */
  | { type: 'pull-ended'; items: NewHistoryItem[] };

/** Said after a failed start check: the REPL keeps working without the model. */
const DEGRADED_NOTE = 'Built-in commands work meanwhile; the next message tries Ollama again.';

function ollamaChecked(state: ChatState, status: OllamaStatus): ChatState {
  if (status.state !== 'down') return state;
  const hint = status.hint ? `${status.hint.replace(/\.?$/, '.')} ${DEGRADED_NOTE}` : DEGRADED_NOTE;
  return addItems(state, { type: 'error', text: status.message, hint });
}

type ApprovalStep = Extract<ChatAction, { type: `approval-${string}` }>;

/** Security: a call not yet seen to its end takes no allowing choice; the box says why. */
function chosen(activity: ApprovalActivity, choice: AllowingDecision | undefined): ApprovalActivity {
  if (choice && activity.review && !activity.review.seen) return { ...activity, choice: undefined, unseen: true };
  return { ...activity, choice };
}

/** The view moved, or the whole call shown: once all of it has been seen, `y` and `a` work. */
function reviewed(activity: ApprovalActivity, review: ApprovalReview | undefined): ApprovalActivity {
  return review ? { ...activity, review } : activity;
}

function approvalStep(state: ChatState, activity: ApprovalActivity, action: ApprovalStep): ChatState {
  switch (action.type) {
    case 'approval-ready':
      return { ...state, activity: { ...activity, ready: true } };
    case 'approval-typed-ahead':
      return { ...state, activity: { ...activity, ready: false, choice: undefined } };
    case 'approval-choice':
      return { ...state, activity: chosen(activity, action.choice) };
    case 'approval-scroll':
      return { ...state, activity: reviewed(activity, activity.review && scrolledBy(activity.review, action.by)) };
    case 'approval-whole-call': {
      const text = `${displayName(activity.call)} with every argument:\n${wholeArguments(activity.call.arguments)}`;
      const seen = reviewed(activity, activity.review && { ...activity.review, seen: true });
      return addItems({ ...state, activity: seen }, { type: 'info', text });
    }
    case 'approval-answered':
      return { ...state, activity: { type: 'tool', calls: [{ id: activity.callId, call: activity.call }] } };
    default:
      return assertNever(action);
  }
}

function submitted(state: ChatState, text: string, parsed: ParsedInput): ChatState {
  const withLine = addItems(state, { type: 'user', text: text.trim() });
  if (parsed.type !== 'unknown-command') return withLine;
  const suggestion = parsed.suggestion ? ` Did you mean /${parsed.suggestion}?` : '';
  const hint = 'Type help for the list of commands.';
  return addItems(withLine, { type: 'error', text: `Unknown command ${parsed.text}.${suggestion}`, hint });
}

type AskingStep = Extract<ChatAction, { type: 'ask-arguments' | 'argument-answered' | 'asking-cancelled' }>;

function askingStep(state: ChatState, action: AskingStep): ChatState {
  switch (action.type) {
    case 'ask-arguments': {
      const { asking } = action;
      const names = asking.arguments.map((arg) => (arg.description ? `${arg.name} (${arg.description})` : arg.name));
      const text = `${asking.prompt} needs ${names.join(', ')}: type each and press Enter (Tab suggests, Esc cancels).`;
      return addItems({ ...state, asking }, { type: 'info', text });
    }
    case 'argument-answered': {
      const asking = state.asking;
      const argument = asking && askedArgument(asking);
      if (!asking || !argument) return state;
      if (action.value === '')
        return addItems(state, { type: 'error', text: `${argument.name} needs a value.`, hint: 'Esc cancels.' });
      const answers = { ...asking.answers, [argument.name]: action.value };
      return addItems(
        { ...state, asking: { ...asking, answers } },
        { type: 'user', text: `${argument.name}=${action.value}` },
      );
    }
    case 'asking-cancelled': {
      if (!state.asking) return state;
      return addItems({ ...state, asking: undefined }, { type: 'info', text: `Cancelled /${state.asking.prompt}.` });
    }
    default:
      return assertNever(action);
  }
}

type QuestionStep = Extract<ChatAction, { type: 'question' | 'question-step' | 'question-done' }>;

/** What the scrollback shows of a question as it is asked. */
function questionItem(question: ScreenQuestion): NewHistoryItem {
  return question.type === 'tool-changes' ? toolChangesItem(question) : { type: 'info', text: question.text };
}

function questionStep(state: ChatState, action: QuestionStep): ChatState {
  switch (action.type) {
    case 'question': {
      const questions = [...state.questions, action.question];
      // A question is shown when it is the one being asked; the others wait their turn.
      const shown = questions.length === 1 ? addItems(state, questionItem(action.question)) : state;
      return { ...shown, questions };
    }
    case 'question-step': {
      const [first, ...rest] = state.questions;
      const questions = action.next && first?.id === action.id ? [action.next, ...rest] : state.questions;
      return addItems({ ...state, questions }, ...action.items);
    }
    case 'question-done': {
      const wasAsked = state.questions[0]?.id === action.id;
      const questions = state.questions.filter((question) => question.id !== action.id);
      const noted = action.note ? addItems(state, { type: 'info', text: action.note }) : state;
      const next = wasAsked ? questions[0] : undefined;
      return next ? addItems({ ...noted, questions }, questionItem(next)) : { ...noted, questions };
    }
    default:
      return assertNever(action);
  }
}

export function reduceChat(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'add':
      return addItems(state, ...action.items);
    case 'printed':
      return printedItems(state, action.lastId);
    case 'saved':
      return { ...state, unsaved: state.unsaved.slice(action.count) };
    case 'turn-started': {
      // A turn runs the asked prompt with its answers, or something else entirely: the question is over.
      return { ...state, asking: undefined, activity: { type: 'waiting' }, streamed: '', committed: '' };
    }
    case 'turn-event':
      return applyTurnEvent(state, action);
    case 'approval-ready':
    case 'approval-typed-ahead':
    case 'approval-choice':
    case 'approval-whole-call':
    case 'approval-scroll':
    case 'approval-answered':
      return state.activity.type === 'approval' ? approvalStep(state, state.activity, action) : state;
    case 'turn-ended':
      // A turn ends after its answer, error or cancel, which commit the reply; a bug's end keeps it too.
      return { ...commitStreamed(state), activity: { type: 'idle' } };
    case 'servers':
      return { ...state, servers: action.servers };
    case 'ollama-checked':
      return ollamaChecked({ ...state, ollama: action.status }, action.status);
    case 'queued':
    case 'queue-taken':
      return { ...state, queued: action.type === 'queued' ? [...state.queued, action.text] : state.queued.slice(1) };
    case 'submitted':
      return submitted(state, action.text, action.parsed);
    case 'command-done': {
      const { result } = action;
      // A cleared conversation no longer fills the context: the gauge waits for the next request.
      const cleared = result.clear
        ? { ...state, items: [], unsaved: [], epoch: state.epoch + 1, context: undefined }
        : state;
      const shown = showItems({ ...cleared, exiting: state.exiting || result.exit === true }, ...(result.shown ?? []));
      return addItems(shown, ...result.items);
    }
    case 'ask-arguments':
    case 'argument-answered':
    case 'asking-cancelled':
      return askingStep(state, action);
    case 'question':
    case 'question-step':
    case 'question-done':
      return questionStep(state, action);
    case 'pull-progress':
      return { ...state, pulling: action.pulling };
    case 'pull-ended':
      return addItems({ ...state, pulling: undefined }, ...action.items);
    default:
      return assertNever(action);
  }
}
