/** The saved-session commands of the REPL: `/resume`, `/save`, `/sessions`, `/delete`, `/export`. */
import { assertNever } from '../shared/errors.js';
import type { ChatSession } from '../session/chat-session.js';
import { deleteSession, exportCurrentSession, saveSessionAs } from '../session/session-actions.js';
import { resumeSession } from '../session/session-resume.js';
import { formatSessionList } from '../present/session-list.js';
import { resumedScreen } from './chat-state.js';
import { attempt, type CommandResult } from './command-result.js';
import { repliesIn } from './history.js';
import { readyToDraw } from './markdown.js';

type SessionCommand = 'resume' | 'save' | 'sessions' | 'delete' | 'export';

/** The saved-session commands; the REPL's session always has a keeper, a test's may not. */
export async function sessionCommand(
  name: SessionCommand,
  arg: string | undefined,
  session: ChatSession,
): Promise<CommandResult> {
  const keeper = session.keeper;
  if (!keeper) return { items: [{ type: 'error', text: 'This chat keeps no sessions.' }] };
  switch (name) {
    case 'resume':
      try {
        const { saved, note } = await resumeSession(session, arg ?? 'latest');
        const { shown, said } = resumedScreen(saved, note);
        await readyToDraw(repliesIn(shown));
        return { shown, items: [said], clear: true };
      } catch (error) {
        // `attempt` turns the failure (a damaged file, a newer format, no such session) into its line.
        return { items: [await attempt(() => Promise.reject(error))] };
      }
    case 'save':
      return { items: [await attempt(async () => saveSessionAs(keeper, arg))] };
    case 'sessions':
      return {
        items: [
          await attempt(async () => {
            const { sessions, problems } = keeper.store.list();
            const list = formatSessionList(sessions, new Date(), keeper.sessionName);
            return [list, ...problems.map((problem) => `  ✗ ${problem.message}`)].join('\n');
          }),
        ],
      };
    case 'delete':
      return { items: [await attempt(async () => deleteSession(keeper, arg))] };
    case 'export':
      return { items: [await attempt(async () => exportCurrentSession(keeper, arg, process.cwd()))] };
    default:
      return assertNever(name);
  }
}
