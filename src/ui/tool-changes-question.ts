/**
 * The question about a server's tools that are new or changed since the user accepted them, as
 * the REPL holds it: the whole diff goes to the scrollback (drawn in colour by ToolChangesView, saved
 * with the session as text), and the line asks whether the model may be offered them (y/n).
 */
import { formatServerChanges } from '../present/tool-changes.js';
import type { ServerToolChanges } from '../vocabulary/tool-pins.js';
import type { QuestionId } from '../vocabulary/types.js';
import type { NewHistoryItem } from './history.js';

export interface ToolChangesScreenQuestion {
  type: 'tool-changes';
  id: QuestionId;
  text: string;
  changes: ServerToolChanges;
}

/** What the question says after the diff: what each answer does. */
export const TOOL_CHANGES_ANSWERS =
  'The model is not offered them until you accept them: y offers them and remembers them; n keeps them back for this session.';

export const TOOL_CHANGES_PROMPT = { label: 'offer them to the model? y/n' };

export function toolChangesQuestion(id: QuestionId, changes: ServerToolChanges): ToolChangesScreenQuestion {
  return { type: 'tool-changes', id, changes, text: `${formatServerChanges(changes)}\n${TOOL_CHANGES_ANSWERS}` };
}

/** The scrollback's item for the question: the diff, as text for the session file. */
export function toolChangesItem(question: ToolChangesScreenQuestion): NewHistoryItem {
  return { type: 'tool-changes', text: question.text, changes: question.changes };
}
