/**
 * Carrying on a saved session: at start (`mcp-chat --resume`), where the session's model is
 * chosen before the model client exists, and in the chat (`/resume`), where the chat switches to
 * it if Ollama has it. Either way the saved messages go with the next request.
 */
import { ExitCode, McpChatError, errorMessage } from '../shared/errors.js';
import type { ChatSession } from './chat-session.js';
import type { Runtime } from './runtime.js';
import type { SavedSession } from '../state/session-file.js';

/** The runtime a resumed session runs with: its own model, unless `--model` chose one for this run. */
export function runtimeForSession(runtime: Runtime, saved: SavedSession | undefined, modelGiven: boolean): Runtime {
  if (!saved || modelGiven || saved.model === runtime.config.ollama.model) return runtime;
  const ollama = { ...runtime.config.ollama, model: saved.model };
  return { ...runtime, config: { ...runtime.config, ollama } };
}

/** `/resume [name]`: the session replaces the conversation; a note when its model could not be used. */
export async function resumeSession(
  session: ChatSession,
  name: string,
): Promise<{ saved: SavedSession; note?: string }> {
  const keeper = session.keeper;
  if (!keeper) throw new McpChatError('this chat keeps no sessions', ExitCode.runtime);
  const saved = keeper.store.load(name);
  session.restoreConversation(saved);
  if (saved.model === session.model) return { saved };
  try {
    await session.switchModel(saved.model);
    return { saved, note: `Model switched to ${saved.model}, the session's.` };
  } catch (error) {
    return {
      saved,
      note: `The session's model ${saved.model} cannot be used (${errorMessage(error)}); going on with ${session.model}.`,
    };
  }
}
