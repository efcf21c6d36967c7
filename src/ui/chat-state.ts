/**
 * The REPL's state: the screen's history, the pending activity, server and Ollama states.
 * Plain data; `chat-reducer.ts` is the only place it changes.
 */
import type { MissingArguments } from '../vocabulary/offers.js';
import type { ServerStatus } from '../session/chat-session.js';
import type { SavedSession } from '../state/session-file.js';
import { shownFrom } from '../state/resume-view.js';
import { formatTime } from '../present/task-list.js';
import type { PullView } from '../present/pull-progress.js';
import type { Activity, HistoryItem, NewHistoryItem } from './history.js';
import type { OllamaStatus } from './ollama-status.js';
import type { ScreenQuestion } from './server-questions.js';
import { counted } from '../shared/plural.js';

export interface ChatState {
  /**
   * History items `<Static>` has not written to the scrollback yet. It writes each once, and the
   * REPL then lets it go (`printed`): a long session holds what is still to be drawn, not all it drew.
   */
  items: HistoryItem[];
  /** Items shown since the session was last saved, for the next save (not a resumed session's own). */
  unsaved: NewHistoryItem[];
  nextId: number;
  /** What still changes below the history; anything but `idle` means a turn runs. */
  activity: Activity;
  /** Reply text streamed since the last commit to the history: the block still being written. */
  streamed: string;
  /** The same reply's finished blocks before it, already drawn in the history; it is saved whole. */
  committed: string;
  servers: ServerStatus[];
  ollama: OllamaStatus;
  /** Changes when the screen is cleared, so `<Static>` starts afresh (see `staticKey`). */
  epoch: number;
  exiting: boolean;
  /** A prompt's required arguments being asked for, one per line, before its turn runs. */
  asking?: AskingArguments | undefined;
  /** Servers' requests waiting for the user; the first is asked, on the input line. */
  questions: ScreenQuestion[];
  /** Lines sent while a turn ran, oldest first: each is sent in its turn once nothing runs or asks. */
  queued: string[];
  /** A model being pulled (downloaded): its progress line shows, Esc cancels it, and the input waits. */
  pulling?: PullView | undefined;
  /** How full the model's context was at the last request (the status bar shows it). */
  context?: { used: number; size: number } | undefined;
}

/** The state without the streaming reply's text, which the screen reads apart (chat-store.ts). */
export type ScreenState = Omit<ChatState, 'streamed'>;

export interface AskingArguments extends MissingArguments {
  /** The line that ran the prompt, run again with the answers. */
  line: string;
  answers: Record<string, string>;
}

/** The argument the question is about: the first not answered yet. */
export function askedArgument(asking: AskingArguments): MissingArguments['arguments'][number] | undefined {
  return asking.arguments.find((argument) => !(argument.name in asking.answers));
}

export function initialChatState(banner: { model: string; configSource: string }, servers: ServerStatus[]): ChatState {
  return {
    items: [{ id: 0, type: 'banner', ...banner }],
    unsaved: [],
    nextId: 1,
    activity: { type: 'idle' },
    streamed: '',
    committed: '',
    servers,
    ollama: { state: 'checking' },
    epoch: 0,
    exiting: false,
    questions: [],
    queued: [],
  };
}

/** Items drawn but not saved again: a resumed session's screen, which its file has already. */
export function showItems(state: ChatState, ...shown: NewHistoryItem[]): ChatState {
  if (shown.length === 0) return state;
  const items = shown.map((item, index) => ({ id: state.nextId + index, ...item }) as HistoryItem);
  return { ...state, items: [...state.items, ...items], nextId: state.nextId + items.length };
}

/** Items saved with the session at the end of the turn but drawn otherwise: a reply drawn block by block is saved whole. */
export function saveItems(state: ChatState, ...saved: NewHistoryItem[]): ChatState {
  return saved.length === 0 ? state : { ...state, unsaved: [...state.unsaved, ...saved] };
}

/** Items drawn and saved with the session at the end of the turn. */
export function addItems(state: ChatState, ...added: NewHistoryItem[]): ChatState {
  return saveItems(showItems(state, ...added), ...added);
}

/** `<Static>` has written the items up to `lastId`: they are let go. */
export function printedItems(state: ChatState, lastId: number): ChatState {
  const items = state.items.filter((item) => item.id > lastId);
  return items.length === state.items.length ? state : { ...state, items };
}

/**
 * A `<Static>` keeps the count of items it has written and writes those past it, so one whose
 * items were let go is replaced by a new one: keyed by the screen's epoch and its first item.
 */
export const staticKey = (state: ScreenState): string => `${state.epoch}:${state.items[0]?.id ?? state.nextId}`;

export const isBusy = (state: ScreenState): boolean => state.activity.type !== 'idle' || state.pulling !== undefined;

/** The line to send now from those queued: none while a turn runs or the user is asked something. */
export const queuedToSend = (state: ScreenState): string | undefined =>
  isBusy(state) || state.questions.length > 0 || state.asking ? undefined : state.queued[0];

/** A resumed session on screen: its last turns as they were shown (`shown`), then where the chat goes on (`said`). */
export interface ResumedScreen {
  shown: NewHistoryItem[];
  said: NewHistoryItem;
}

export function resumedScreen(saved: SavedSession, note?: string): ResumedScreen {
  const from = shownFrom(saved.screen);
  const shown = saved.screen.slice(from);
  const turns = counted(saved.turns, 'turn');
  const when = formatTime(saved.updatedAt, new Date());
  const drawn = shown.filter((item) => item.type === 'user').length;
  const part = from > 0 ? ` (the last ${drawn} above; /export <file.md> writes them all)` : '';
  const resumed = `Resumed session ${saved.name}: ${turns}${part}, model ${saved.model}, last saved ${when}. It goes on here.`;
  return { shown, said: { type: 'info', text: note ? `${resumed}\n${note}` : resumed } };
}
