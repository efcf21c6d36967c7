/**
 * The real REPL (`node dist/src/cli.js`) in a pseudo-terminal, driven as a person does: wait
 * for the status bar to say everything is up, type a line, press Enter once the line is on
 * screen, and make sure the message really went to the model.
 */
import fs from 'node:fs';
import path from 'node:path';
import { until } from './harness.js';
import type { ScriptedModel } from './model/server.js';
import { CLI, serverMain } from './paths.js';
import { PtySession } from './pty.js';

export const TERMINAL = { cols: 120, rows: 40 } as const;

/** The banner and the status bar under it: the first frame a person sees. */
export const FIRST_FRAME = /Type a message[\s\S]*ollama/;

export interface Repl {
  session: PtySession;
  pid: number;
}

export interface ReplWorld {
  dir: string;
  configPath: string;
  env: Record<string, string>;
}

/** A working directory, XDG directories and a config naming the three local stdio servers, for REPL and `ask` runs. */
export function replWorld(dir: string, model: string): ReplWorld {
  const home = path.join(dir, 'home');
  const xdg = {
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
  };
  for (const xdgDir of Object.values(xdg)) fs.mkdirSync(xdgDir, { recursive: true });
  const node = (name: string, args: string[] = [], env: Record<string, string> = {}) => ({
    command: process.execPath,
    args: [serverMain(name), ...args],
    env,
  });
  const mcpServers = {
    calculator: node('calculator'),
    file: node('file', [dir]),
    // Never contacted: no benchmark searches arXiv. Port 9 (discard) fails fast if one ever did.
    research: node('research', [], {
      ARXIV_API_URL: 'http://127.0.0.1:9/api/query',
      PAPERS_DIR: path.join(dir, 'papers'),
    }),
  };
  const configPath = path.join(home, 'mcp_config.json');
  fs.writeFileSync(configPath, JSON.stringify({ ollama: { model }, mcpServers }, null, 2));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    ...xdg,
  };
  return { dir, configPath, env };
}

/** Starts the REPL on the scripted model; resolves once the status bar says every server is ready. */
export async function startRepl(world: ReplWorld, model: ScriptedModel): Promise<Repl> {
  const session = PtySession.start([process.execPath, CLI, '--config', world.configPath, '--host', model.url], {
    cwd: world.dir,
    env: world.env,
    ...TERMINAL,
  });
  await session.waitFor(/ollama ✓[^\n]*ready/);
  return { session, pid: await session.programPid() };
}

/** `text` as a pattern that matches it literally. */
export const literal = (text: string): RegExp => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

const generationRequests = (model: ScriptedModel): number =>
  model.requests.filter((request) => request.api === 'ollama').length;

/**
 * Types `text` and submits it. Enter is pressed again if no request reached the model:
 * a turn that has just shown its answer may still be finishing, and Enter waits for it.
 */
export async function submit(repl: Repl, model: ScriptedModel, text: string): Promise<void> {
  const mark = repl.session.mark();
  const before = generationRequests(model);
  repl.session.type(text);
  await repl.session.waitFor(literal(text), mark);
  for (let attempt = 0; attempt < 20; attempt++) {
    repl.session.type('\r');
    try {
      await until('the message to reach the model', () => generationRequests(model) > before, 500);
      return;
    } catch {
      // Still busy with the previous turn: press Enter again.
    }
  }
  throw new Error(`the REPL never sent "${text}" to the model`);
}

/** Quits with Ctrl+D at the empty prompt, as a person would, and waits for the exit. */
export async function quitRepl(repl: Repl): Promise<void> {
  repl.session.type('\u0004');
  await repl.session.close();
}
