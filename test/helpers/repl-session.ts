/**
 * A REPL session for end-to-end tests: the fake Ollama, a temporary working directory with
 * an optional `mcp_config.json`, and the real binary started in a tmux pane there. Torn down
 * after the file's tests, the fake included (whichever fake `ollama` holds by then).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startFakeOllama, TEXT_MODEL, type FakeModel, type FakeOllama } from '../fakes/fake-ollama.js';
import { CLI, cleanEnv } from './run-cli.js';
import { SCREEN_WAIT, TmuxPane } from './tmux.js';

export { SCREEN_WAIT };

export interface ReplSessionOptions {
  /** Default: `llama3.2` without native tools, so calls are text JSON. */
  models?: FakeModel[];
  /**
   * Written as `mcp_config.json` in the working directory and trusted for the run (`--trust`); the
   * shipped config otherwise. A function is called when the session starts (after earlier `beforeAll`s).
   */
  config?: Record<string, unknown> | (() => Record<string, unknown>);
  /**
   * How the REPL is told to use that config: `trust` (default) as the working directory's own, for
   * this run; `flag` as the user's own, with `--config` (edits while it runs apply without a question).
   */
  configBy?: 'trust' | 'flag';
  /** Options for node itself, before the script. */
  nodeArgs?: string[];
  /** The pane's size: tmux's 120×40 when not given. */
  width?: number;
  height?: number;
  /** More environment for the REPL (e.g. a `BROWSER` that records what it is asked to open). */
  env?: Record<string, string>;
  /** More arguments for the binary, after the script (e.g. `--resume latest`). */
  args?: string[];
}

export interface ReplSession {
  readonly pane: TmuxPane;
  /** The fake the REPL talks to; a test may put a new one here (e.g. on the same port). */
  ollama: FakeOllama;
  workDir: string;
  /** Resolves once the screen shows `text` anew: more often than when keys were last typed (see `TmuxPane.waitForNew`). */
  shows(text: string): Promise<void>;
  /**
   * Starts the REPL again in a fresh pane, same working directory, environment and config, with
   * `args` in place of the options' (the one before is killed if it still runs): a second run.
   */
  restart(args?: string[]): void;
}

export function useReplSession(options: ReplSessionOptions = {}): ReplSession {
  const pane = new TmuxPane();
  let ollama: FakeOllama | undefined;
  const session: ReplSession = {
    pane,
    get ollama(): FakeOllama {
      if (!ollama) throw new Error('the REPL session has not started yet');
      return ollama;
    },
    set ollama(next: FakeOllama) {
      ollama = next;
    },
    workDir: '',
    shows: (text) => pane.waitForNew(text),
    restart: (args) => {
      if (!launch) throw new Error('the REPL session has not started yet');
      pane.kill();
      launch(args ?? options.args ?? []);
    },
  };
  let launch: ((args: string[]) => void) | undefined;
  beforeAll(async () => {
    session.ollama = await startFakeOllama({ models: options.models ?? TEXT_MODEL });
    session.workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-repl-session-')));
    const config = typeof options.config === 'function' ? options.config() : options.config;
    if (config) fs.writeFileSync(path.join(session.workDir, 'mcp_config.json'), JSON.stringify(config));
    const env = cleanEnv({
      HOME: session.workDir,
      OLLAMA_HOST: session.ollama.url,
      TERM: 'xterm-256color',
      MCP_CHAT_LOG_FILE: path.join(session.workDir, 'log.jsonl'),
      ...options.env,
    });
    // A config written here is the working directory's own, used only when trusted: --trust, for this
    // run; or named with --config, as the user's own.
    const configFile = path.join(session.workDir, 'mcp_config.json');
    const configArgs = !config ? [] : options.configBy === 'flag' ? ['--config', configFile] : ['--trust'];
    launch = (args) =>
      pane.start([process.execPath, ...(options.nodeArgs ?? []), CLI, ...configArgs, ...args], {
        cwd: session.workDir,
        env,
        width: options.width,
        height: options.height,
      });
    launch(options.args ?? []);
  });
  afterAll(async () => {
    pane.kill();
    await ollama?.close();
    fs.rmSync(session.workDir, { recursive: true, force: true });
  });
  return session;
}
