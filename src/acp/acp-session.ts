/**
 * One ACP session: a `ChatSession` for the editor's directory (its config found and trusted as
 * for a script, the editor's servers merged in), its servers kept running until the session or
 * the connection ends, and its turns saved under the session id, so `session/load` can resume it.
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import { createOllamaClient, type OllamaClient } from '../ollama/client.js';
import { ChatSession, type SessionHost } from '../session/chat-session.js';
import { createRuntime, type GlobalOptions, type Runtime } from '../session/runtime.js';
import { scriptGate } from '../session/server-request-gate.js';
import { withHost } from '../session/with-host.js';
import type { SavedSession } from '../state/session-file.js';
import { SessionKeeper } from '../state/session-keeper.js';
import type { SessionStore } from '../state/session-store.js';
import { withEditorServers } from './editor-servers.js';

export interface SessionSetup {
  globals: GlobalOptions;
  store: SessionStore;
  cwd: string;
  mcpServers: readonly McpServer[];
  /** `session/load`: the session carried on. */
  saved?: SavedSession;
}

export interface OpenSession {
  chat: ChatSession;
  llm: OllamaClient;
  /** What the user must hear of the start (a server that failed), not said yet: the next turn says it first. */
  warnings: string[];
  /** Stops the servers; resolves once every child is gone. */
  close: () => Promise<void>;
}

/** The runtime for the session's directory: notices go to the log, as stdout is the protocol's. */
async function sessionRuntime(setup: SessionSetup): Promise<Runtime> {
  const lines: string[] = [];
  const runtime = await createRuntime(setup.globals, { notify: (line) => lines.push(line) }, setup.cwd);
  for (const line of lines) runtime.log.warn(line);
  const config = withEditorServers(runtime.config, setup.mcpServers, setup.cwd);
  // A resumed session keeps its model unless --model chose one.
  const model = setup.saved && setup.globals.model === undefined ? setup.saved.model : config.ollama.model;
  return { ...runtime, config: { ...config, ollama: { ...config.ollama, model } } };
}

/** Starts the session's servers; resolves once they are up (a server that failed is in the log). */
export async function openSession(setup: SessionSetup): Promise<OpenSession> {
  const runtime = await sessionRuntime(setup);
  const { config, log } = runtime;
  const llm = createOllamaClient(config.ollama, log);
  const warnings: string[] = [];
  const warn = (line: string): void => {
    log.warn(line);
    warnings.push(line);
  };
  // No one can be asked about a server's request here: it is declined, as in a script without --yes.
  const gate = scriptGate(config.servers, () => llm, log, warn, false);
  const keeper = new SessionKeeper(setup.store);
  let stop: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let opened: ((chat: ChatSession) => void) | undefined;
  const ready = new Promise<ChatSession>((resolve) => (opened = resolve));
  const run = async (host: SessionHost): Promise<void> => {
    opened?.(new ChatSession(runtime, host, llm, { keeper, gate }));
    await stopped;
  };
  // A server disabled by its config (a missing variable) is the user's choice: only logged.
  const disabled = (line: string): void => log.info(line);
  const life = withHost(runtime, { warn, disabled }, run, { serverRequests: gate });
  // A failure before the servers are up (a bad config) ends the open; the servers stay up until `close`.
  const chat = await Promise.race([ready, life.then(() => ready)]);
  if (setup.saved) chat.restoreConversation(setup.saved);
  const close = async (): Promise<void> => {
    stop?.();
    await life;
  };
  return { chat, llm, warnings, close };
}
