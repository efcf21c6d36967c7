/**
 * The REPL in this process, wired as `mcp-chat` wires it (src/cli/chat-command.tsx): the config
 * loaded from a file, `openChatSession` (the real host and its servers, the Ollama client over
 * HTTP to the fake Ollama, the gate for servers' questions), the session store and the input
 * history in a state directory of the file's own, and the App in ink-testing-library's terminal.
 * What a REPL session does is proven here, with no terminal in between to wait on; what only a
 * real terminal shows (raw mode, resize, signals, the built bundle starting) stays in test/e2e.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { McpHost } from '../../src/mcp/host.js';
import type { ChatSession } from '../../src/session/chat-session.js';
import { openChatSession } from '../../src/session/open-chat-session.js';
import type { Runtime } from '../../src/session/runtime.js';
import { runtimeForSession } from '../../src/session/session-resume.js';
import { createLogger, type Logger, silentLogger } from '../../src/shared/log.js';
import { InputHistory } from '../../src/state/input-history.js';
import { SessionKeeper } from '../../src/state/session-keeper.js';
import { SessionStore } from '../../src/state/session-store.js';
import { repliesIn } from '../../src/ui/history.js';
import { readyToDraw } from '../../src/ui/markdown.js';
import { startFakeOllama, TEXT_MODEL, type FakeModel, type FakeOllama } from '../fakes/fake-ollama.js';
import { SHIPPED_CONFIG } from '../helpers/config-dir.js';
import { KEY, startApp, type RenderedApp } from './render-app.js';

export interface LiveReplOptions {
  /** Written as the chat's `mcp_config.json`; a function is called when the file's tests start (after earlier `beforeAll`s). */
  config: Record<string, unknown> | (() => Record<string, unknown>);
  /** Default: `llama3.2` without native tools, so calls are text JSON. */
  models?: FakeModel[];
  /** Writes the chat's log, at debug level, to `logFile`; by default nothing is logged. */
  log?: boolean;
}

export interface LiveRepl {
  readonly ollama: FakeOllama;
  readonly workDir: string;
  /** `XDG_STATE_HOME` of the chat: its saved sessions and input history are under `mcp-chat/` here. */
  readonly stateHome: string;
  /** Where the chat's log is written, with `log: true`. */
  readonly logFile: string;
  /** The session of the chat opened last. */
  readonly session: ChatSession;
  /**
   * Opens a chat as `mcp-chat` does (`--resume <name>` with `resume`): its servers start behind the
   * first frame. The chat open before is closed as the program closes on exit.
   */
  open(options?: { resume?: string }): Promise<RenderedApp>;
  /** A new screen over the chat opened last: the same session and servers, nothing drawn yet. */
  newScreen(): Promise<RenderedApp>;
  /** Ctrl+D, as the user quits; then what the program does after: its servers stopped, its last save written. */
  quit(app: RenderedApp): Promise<void>;
}

interface OpenChat {
  session: ChatSession;
  host: McpHost;
  store: SessionStore;
  started: Promise<void>;
  inputHistory: InputHistory;
  app: RenderedApp;
}

export function useLiveRepl(options: LiveReplOptions): LiveRepl {
  let ollama: FakeOllama | undefined;
  let workDir = '';
  let chat: OpenChat | undefined;
  const stateHome = (): string => path.join(workDir, 'state');
  const logFile = (): string => path.join(workDir, 'mcp-chat.log');
  let log: Logger = silentLogger;
  const stateEnv = (): Record<string, string> => ({ XDG_STATE_HOME: stateHome() });
  const opened = (): OpenChat => {
    if (!chat) throw new Error('no chat is open');
    return chat;
  };

  function runtime(): Runtime {
    const configPath = path.join(workDir, 'mcp_config.json');
    const env = { HOME: workDir, OLLAMA_HOST: live.ollama.url, ...stateEnv() };
    const read = () => loadConfig({ configPath, cwd: workDir, env, packageConfigPath: SHIPPED_CONFIG });
    return { config: read(), log, debug: false, configFile: { path: configPath, read } };
  }

  async function close(): Promise<void> {
    if (!chat) return;
    const { app, started, host, store } = chat;
    chat = undefined;
    if (!app.exited()) app.ui.unmount();
    await started;
    await Promise.all([host.close(), store.flush()]);
  }

  const live: LiveRepl = {
    get ollama(): FakeOllama {
      if (!ollama) throw new Error('the fake Ollama has not started yet');
      return ollama;
    },
    get workDir() {
      return workDir;
    },
    get stateHome() {
      return stateHome();
    },
    get logFile() {
      return logFile();
    },
    get session() {
      return opened().session;
    },
    async open({ resume } = {}) {
      await close();
      const store = SessionStore.open(stateEnv());
      const saved = resume === undefined ? undefined : store.load(resume);
      const { session, host } = openChatSession(runtimeForSession(runtime(), saved, false), new SessionKeeper(store));
      if (saved) session.restoreConversation(saved);
      const started = host.start();
      const inputHistory = InputHistory.open(stateEnv(), silentLogger);
      if (saved) await readyToDraw(repliesIn(saved.screen));
      const app = await startApp({ session, inputHistory });
      chat = { session, host, store, started, inputHistory, app };
      return app;
    },
    async newScreen() {
      const current = opened();
      current.app.ui.unmount();
      current.app = await startApp({ session: current.session, inputHistory: current.inputHistory });
      return current.app;
    },
    async quit(app) {
      app.press(KEY.ctrlD);
      await app.waitUntil(() => expect(app.exited()).toBe(true));
      await close();
    },
  };

  beforeAll(async () => {
    ollama = await startFakeOllama({ models: options.models ?? TEXT_MODEL });
    workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-live-repl-')));
    // What reads the state directory from the environment (the tool-selection store) finds the chat's.
    vi.stubEnv('XDG_STATE_HOME', stateHome());
    const config = typeof options.config === 'function' ? options.config() : options.config;
    fs.writeFileSync(path.join(workDir, 'mcp_config.json'), JSON.stringify(config));
    if (options.log) log = createLogger({ level: 'debug', file: logFile() });
  });
  afterAll(async () => {
    await close();
    vi.unstubAllEnvs();
    await ollama?.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });
  return live;
}
