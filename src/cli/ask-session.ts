/**
 * `ask --session <name>`: the named session is continued (or started) and saved after the
 * answer, so two `ask` calls hold one dialogue. The session's model is used unless `--model`
 * was given. A damaged or newer session file stops `ask` before anything starts (exit 1).
 */
import type { ChatSession } from '../session/chat-session.js';
import type { Runtime } from '../session/runtime.js';
import type { SavedSession } from '../state/session-file.js';
import { SessionKeeper } from '../state/session-keeper.js';
import { checkSessionName } from '../state/session-name.js';
import { SessionStore } from '../state/session-store.js';
import { TurnTranscript } from '../state/turn-transcript.js';
import { ExitCode, errorMessage } from '../shared/errors.js';
import type { Output } from './output.js';

export interface AskSession {
  keeper: SessionKeeper;
  /** The session as saved before this run; undefined when the name is new. */
  saved: SavedSession | undefined;
}

/**
 * Opens the session `--session` names (none without it); returns the runtime `ask` runs with:
 * the session's model, unless `--model` was given.
 */
export function openAskSession(
  runtime: Runtime,
  name: string | undefined,
  modelGiven: boolean,
): { runtime: Runtime; session: AskSession | undefined } {
  if (name === undefined) return { runtime, session: undefined };
  const store = SessionStore.open();
  checkSessionName(name);
  const saved = store.exists(name) ? store.load(name) : undefined;
  const keeper = new SessionKeeper(store, name);
  const model = saved && !modelGiven ? saved.model : runtime.config.ollama.model;
  const ollama = { ...runtime.config.ollama, model };
  return { runtime: { ...runtime, config: { ...runtime.config, ollama } }, session: { keeper, saved } };
}

/** Before the turn: the saved conversation goes with the request. */
export function resumeAskSession(chat: ChatSession, session: AskSession | undefined): void {
  if (session?.saved) chat.restoreConversation(session.saved);
}

/** After the turn: the session is saved with this turn; a failed save is exit 1, said on stderr. */
export async function saveAskSession(
  chat: ChatSession,
  session: AskSession | undefined,
  transcript: TurnTranscript,
  output: Output,
): Promise<number> {
  if (!session) return ExitCode.ok;
  try {
    await chat.saveTurn(transcript.items, transcript.answered);
    return ExitCode.ok;
  } catch (error) {
    output.stderr(`error: session ${session.keeper.sessionName} not saved: ${errorMessage(error)}\n`);
    return ExitCode.runtime;
  }
}
