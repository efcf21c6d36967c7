/**
 * What the REPL shows, as data: committed history items (rendered once into the
 * terminal's scrollback by `<Static>`) and the one pending activity that still changes.
 */
import type { ServerToolChanges } from '../vocabulary/tool-pins.js';
import type { ApprovalReview } from './approval-review.js';
import type {
  ApprovalDecision,
  CallId,
  QuestionId,
  ToolCall,
  ToolProgress,
  ToolResult,
  WritePreview,
} from '../vocabulary/types.js';

export type HistoryItem =
  | { id: number; type: 'banner'; model: string; configSource: string }
  | { id: number; type: 'user'; text: string }
  /** `continued`: a later block of the reply in the item above, drawn while the reply streamed. */
  | { id: number; type: 'assistant'; text: string; continued?: boolean }
  | { id: number; type: 'tool'; call: ToolCall; result: ToolResult }
  /** `listing`: names and what they are in columns (help, tools), wrapped under their text column. */
  | { id: number; type: 'info'; text: string; listing?: boolean }
  | { id: number; type: 'error'; text: string; hint?: string }
  | { id: number; type: 'debug'; text: string }
  /** A server's changed tools as a diff, asked about; `text`: the same as plain text, for the session file. */
  | { id: number; type: 'tool-changes'; text: string; changes: ServerToolChanges };

/** A history item before it is given its id. */
export type NewHistoryItem = HistoryItem extends infer T ? (T extends HistoryItem ? Omit<T, 'id'> : never) : never;

/** The model's replies among `items` (as shown, or as saved): the texts drawn as markdown. */
export const repliesIn = (items: ReadonlyArray<{ type: string; text?: string }>): string[] =>
  items.flatMap((item) => (item.type === 'assistant' && item.text !== undefined ? [item.text] : []));

export type Activity =
  | { type: 'idle' }
  | { type: 'waiting' }
  /** The reply streams: its unfinished block is the state's `streamed`. */
  | { type: 'streaming' }
  /** The model reasons before it answers: its reasoning so far, shown dim until the answer starts. */
  | { type: 'thinking'; text: string }
  /** Calls running now (read-only calls of one reply run together), with the progress each last reported. */
  | { type: 'tool'; calls: RunningCall[]; progress?: ReadonlyMap<CallId, ToolProgress> }
  | ApprovalActivity;

/** A call on screen, by the id its events carry. */
export interface RunningCall {
  id: CallId;
  call: ToolCall;
}

/**
 * The turn waits for the user to answer question `id` about call `callId`. Security: the
 * question takes no answer until `ready` (a moment after it is drawn and after the last key
 * typed ahead), no allowing answer until all of the call has been seen, and an allowing answer is
 * a choice confirmed with Enter.
 */
export interface ApprovalActivity {
  type: 'approval';
  id: QuestionId;
  callId: CallId;
  call: ToolCall;
  ready: boolean;
  choice?: AllowingDecision;
  /** For a write to a file, what it would change (a diff is shown in `review`). */
  preview?: WritePreview;
  /** A call too long for the box, which takes `y` and `a` only once it has been seen to its end. */
  review?: ApprovalReview;
  /** `y` or `a` was pressed before all of the call was seen: until it is, the box says why it did nothing. */
  unseen?: true;
}

export type AllowingDecision = Exclude<ApprovalDecision, 'deny'>;
