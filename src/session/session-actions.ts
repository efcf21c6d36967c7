/**
 * What the chat's session commands do to the saved sessions (`/save`, `/delete`, `/export`),
 * each answered with the line to show; what cannot be done throws, with what to do instead.
 */
import { ExitCode, McpChatError, UsageError } from '../shared/errors.js';
import { exportSession } from '../state/session-export.js';
import type { SessionKeeper } from '../state/session-keeper.js';
import { counted } from '../shared/plural.js';

/** `/save <name>`: the chat is saved under `name` from now on. */
export async function saveSessionAs(keeper: SessionKeeper, name: string | undefined): Promise<string> {
  if (!name) throw new UsageError('name the session: /save <name>');
  const saved = await keeper.saveAs(name);
  return saved
    ? `Saved as ${name} (${counted(saved.turns, 'turn')}); later turns are saved there too. mcp-chat --resume ${name} continues it.`
    : `This chat will be saved as ${name} after its first answer.`;
}

/** `/delete <name>`: any saved session but the one this chat is saving to. */
export async function deleteSession(keeper: SessionKeeper, name: string | undefined): Promise<string> {
  if (!name) throw new UsageError('name the session: /delete <name> (/sessions lists them)');
  if (name === keeper.sessionName)
    throw new McpChatError(
      `${name} is the session this chat saves to`,
      ExitCode.runtime,
      '/clear starts a new session; then /delete it.',
    );
  // A background save of that session (the one before a `clear`) must not bring it back.
  await keeper.store.flush();
  if (!keeper.store.delete(name)) throw new McpChatError(`no session named ${name}`, ExitCode.runtime);
  return `Deleted session ${name}.`;
}

/** `/export <file.md|file.json>`: the session as saved after the last turn. */
export function exportCurrentSession(keeper: SessionKeeper, file: string | undefined, cwd: string): string {
  if (!file) throw new UsageError('name the file: /export <file.md|file.json>');
  const saved = keeper.saved;
  if (!saved) throw new McpChatError('nothing to export yet: a session is saved after its first answer');
  return `Exported session ${saved.name} to ${exportSession(saved, file, cwd)}.`;
}
