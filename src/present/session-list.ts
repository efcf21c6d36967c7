/** Saved sessions for people: `mcp-chat sessions` and the REPL's `/sessions`, one line each, newest first. */
import { sanitizeForDisplay } from '../shared/terminal-text.js';
import { formatTime } from './task-list.js';
import { counted } from '../shared/plural.js';

/** What a listing shows of a session (the store's `SessionSummary`). */
export interface SessionRow {
  name: string;
  model: string;
  updatedAt: string;
  turns: number;
  title: string;
}

/** The first line is cut to this: a listing line should fit a terminal. */
const MAX_TITLE = 60;

/** `current`: the session this chat saves to, marked with `*`. */
export function formatSessionList(sessions: readonly SessionRow[], now: Date, current?: string): string {
  if (sessions.length === 0) return 'No saved sessions yet: a chat is saved after its first answer.';
  const times = sessions.map((session) => formatTime(session.updatedAt, now));
  const nameWidth = Math.max(...sessions.map((session) => session.name.length));
  const modelWidth = Math.max(...sessions.map((session) => sanitizeForDisplay(session.model, 40).length));
  const timeWidth = Math.max(...times.map((time) => time.length));
  const lines = sessions.map((session, index) => {
    const mark = session.name === current ? '*' : ' ';
    const turns = counted(session.turns, 'turn').padStart(10);
    const when = (times[index] ?? '').padEnd(timeWidth);
    const model = sanitizeForDisplay(session.model, 40).padEnd(modelWidth);
    return `${mark} ${session.name.padEnd(nameWidth)}  ${when}  ${model}  ${turns}  ${sanitizeForDisplay(session.title, MAX_TITLE)}`;
  });
  return ['Sessions (newest first; mcp-chat --resume <name> or /resume <name> continues one):', ...lines].join('\n');
}
